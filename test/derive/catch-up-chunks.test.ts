import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../server/db/database.ts';
import { DEFERRED_KEY } from '../../server/derive/deferred-steps.ts';
import { mergeKind, planFillChunks, planSnapshotChunks, type Chunk } from '../../server/derive/chunks.ts';
import { rebuildState } from '../../server/derive/rebuild.ts';
import { openService, statePath } from '../../server/service.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { simulateUntil } from '../../server/sources/simulate/source.ts';
import { tempDataDir } from '../helpers/fixtures.ts';
import { diffStates } from '../helpers/state-diff.ts';

/**
 * Chunked catch-up: folding the journal in tiny chunks (hundreds of fills, one commit of
 * snapshots at a time) gives exactly the tables of a one-chunk fold, and a fold cut short
 * resumes after its last committed chunk to the same tables. From an empty state position
 * snapshots go in one pass; the resumed rebuild folds them in chunks, and both must equal the
 * state the service maintained append by append.
 */
const START = Date.UTC(2026, 3, 1);
const { dir, cleanup } = tempDataDir();
const single = join(dir, 'single.duckdb');
let lastSeq = 0;

/** Every table's differences between two state files, as one object that must be all zero. */
async function differences(a: string, b: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [t, d] of Object.entries(await diffStates(a, b))) {
    if (d.onlyA || d.onlyB || d.rows !== d.otherRows) out[t] = `${d.onlyA}/${d.onlyB}/${d.rows}/${d.otherRows}`;
  }
  return out;
}

beforeAll(async () => {
  const service = await openService({ dataDir: dir });
  const sim = new Simulator({ seed: 11, start: START, snapshotsFrom: START + 4 * 86_400_000 });
  // small appends: many commits, so snapshot chunks have commits to split on
  await simulateUntil(service, sim, { seed: 11, scale: 1 }, START + 8 * 86_400_000, { rowsPerAppend: 4_000 });
  lastSeq = service.lastSeq();
  await service.close();
  await rebuildState(dir, single, { chunkRows: 100_000_000 });
}, 120_000);
afterAll(() => cleanup());

describe('chunked catch-up', () => {
  it('tiny chunks give the same derived state as one chunk', async () => {
    const seen: Chunk[] = [];
    const tiny = join(dir, 'tiny.duckdb');
    await rebuildState(dir, tiny, {
      chunkRows: 777,
      afterChunk: (c) => {
        seen.push(c);
      },
    });
    const kinds = (k: string) => seen.filter((c) => c.kind === k).length;
    expect(lastSeq).toBeGreaterThan(20 * 777);
    expect(kinds('fills')).toBe(Math.ceil(lastSeq / 777));
    expect(kinds('market_snapshots')).toBeGreaterThan(3);
    // from an empty state, position snapshots are folded in one pass (sql/catchup/position-latest-all.sql);
    // the chunked fold of them is the resumed rebuild's below
    expect(kinds('position_snapshots')).toBe(1);
    // fill chunks are contiguous seq ranges; snapshot chunks contiguous commit ranges
    expect(seen.filter((c) => c.kind === 'fills').every((c, i, a) => c.from === (i ? a[i - 1]!.to + 1 : 1))).toBe(true);
    expect(await differences(single, tiny)).toEqual({});
    // and the state the service maintained append by append
    expect(await differences(single, statePath(dir))).toEqual({});
  }, 120_000);

  it('a rebuild cut short after some chunks resumes from the last one to the same state', async () => {
    const cut = join(dir, 'cut.duckdb');
    const runs: Chunk[][] = [];
    // killed after its 2nd fill chunk, then (resumed) after its 2nd position-snapshot chunk
    for (const stopAt of ['fills', 'position_snapshots']) {
      const run: Chunk[] = [];
      runs.push(run);
      await expect(
        rebuildState(dir, cut, {
          chunkRows: 3_000,
          afterChunk: (c) => {
            run.push(c);
            if (c.kind === stopAt && run.filter((x) => x.kind === stopAt).length === 2) throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      expect(existsSync(`${cut}.rebuild`)).toBe(true);
      expect(existsSync(cut)).toBe(false);
    }
    expect(runs[0]!.map((c) => c.to)).toEqual([3_000, 6_000]);
    expect(runs[1]![0]).toMatchObject({ kind: 'fills', from: 6_001 });
    const rest: Chunk[] = [];
    await rebuildState(dir, cut, {
      chunkRows: 3_000,
      afterChunk: (c) => {
        rest.push(c);
      },
    });
    // only what was left: no fill chunk and not the first position-snapshot chunks again
    expect(rest.filter((c) => c.kind === 'fills')).toEqual([]);
    expect(rest.filter((c) => c.kind === 'market_snapshots')).toEqual([]);
    expect(rest[0]!.kind).toBe('position_snapshots');
    expect(rest[0]!.from).toBeGreaterThan(1);
    expect(existsSync(`${cut}.rebuild`)).toBe(false);
    expect(await differences(single, cut)).toEqual({});
  }, 120_000);

  it('a resumed rebuild recomputes the rollups whatever its first chunks left in them', async () => {
    // A rebuild begun by an older version merged rollups chunk by chunk before deferring them;
    // the one pass after the last fill chunk must not add to what is there.
    const cut = join(dir, 'cut-rollups.duckdb');
    await expect(
      rebuildState(dir, cut, {
        chunkRows: 3_000,
        afterChunk: (c) => {
          if (c.kind === 'fills' && c.to === 6_000) throw new Error('killed');
        },
      }),
    ).rejects.toThrow('killed');
    const half = await Database.open(`${cut}.rebuild`, { readers: 0 });
    await half.write(async (w) => {
      const [pending] = await w.rows(`SELECT value FROM meta WHERE key = '${DEFERRED_KEY}'`);
      expect(pending?.value).toBe('1');
      for (const table of ['rollup_5m', 'rollup_1h', 'rollup_1d']) {
        await w.exec(`INSERT INTO ${table} VALUES ('alpha', 'SOL-PERP', NULL, TIMESTAMP '2026-04-01 00:00:00', 7, 1, 1, 1, -1, 0, 0, 0, 0)`);
      }
    });
    await half.close();
    await rebuildState(dir, cut, { chunkRows: 3_000 });
    expect(await differences(single, cut)).toEqual({});
  }, 120_000);
});

describe('chunk planning', () => {
  const f = (first: number, last: number) => ({ path: `p/${first}-${last}`, first, last });

  it('merges the chunks of one kind into one at the place of the first', () => {
    const c = (kind: Chunk['kind'], from: number, to: number): Chunk => ({ kind, from, to, files: [`${kind}/${from}`], rows: to - from + 1 });
    const plan = [c('fills', 1, 10), c('market_snapshots', 1, 5), c('position_snapshots', 1, 2), c('position_snapshots', 3, 4), c('position_snapshots', 5, 9)];
    expect(mergeKind(plan, 'position_snapshots')).toEqual([
      plan[0],
      plan[1],
      { kind: 'position_snapshots', from: 1, to: 9, files: ['position_snapshots/1', 'position_snapshots/3', 'position_snapshots/5'], rows: 9 },
    ]);
    expect(mergeKind(plan.slice(0, 3), 'position_snapshots')).toEqual(plan.slice(0, 3));
  });

  it('cuts fills into seq ranges with the files that meet them', () => {
    const files = [f(1, 40), f(5, 60), f(61, 100)];
    expect(planFillChunks(files, 10, 100, 50).map((c) => [c.from, c.to, c.rows, c.files])).toEqual([
      [11, 60, 50, ['p/1-40', 'p/5-60']],
      [61, 100, 40, ['p/61-100']],
    ]);
  });

  it('keeps snapshot files whose commit ranges overlap (compacted days) in one chunk of whole commits', () => {
    // a compacted day covering commits 3..9, per-commit files of other days around it
    const files = [f(1, 1), f(2, 2), f(3, 9), f(4, 4), f(8, 8), f(10, 10), f(11, 11)];
    const rows = new Map(files.map((x) => [x.path, 10]));
    const plan = planSnapshotChunks('position_snapshots', files, rows, 0, 11, 15);
    expect(plan.map((c) => [c.from, c.to, c.files.length, c.rows])).toEqual([
      [1, 2, 2, 20],
      [3, 9, 3, 30],
      [10, 11, 2, 20],
    ]);
    // after commit 5: a file straddling the resume point (3..9) is taken whole, as before chunking
    expect(planSnapshotChunks('position_snapshots', files, rows, 5, 11, 1000).map((c) => [c.from, c.to, c.files])).toEqual([[6, 11, ['p/3-9', 'p/8-8', 'p/10-10', 'p/11-11']]]);
  });
});
