import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { openService } from '../../server/service.ts';
import { at, fill, marketSnapshot, positionSnapshot, tempDataDir } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

const NOW = at('2026-06-02T00:00:00Z');
const first: IncomingBatch = {
  fills: [fill({ time: at('2026-06-01T01:00:00Z'), position_key: 'P1' })],
  marketSnapshots: [marketSnapshot({ time: at('2026-06-01T01:00:00Z') })],
  positionSnapshots: [],
};
const second: IncomingBatch = {
  fills: [
    fill({ time: at('2026-06-01T02:00:00Z'), position_key: 'P1', type: 'close', size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0, price: 101 }),
  ],
  marketSnapshots: [marketSnapshot({ time: at('2026-06-01T02:00:00Z'), index_price: 101 })],
  positionSnapshots: [positionSnapshot({ time: at('2026-06-01T02:00:00Z'), position_key: 'P1', size_usd: 0, collateral_usd: 0 })],
};

const dirs: (() => void)[] = [];
afterEach(() => dirs.splice(0).forEach((cleanup) => cleanup()));
function dataDir(): string {
  const { dir, cleanup } = tempDataDir();
  dirs.push(cleanup);
  return dir;
}

/** Every committed journal file under `dir`, relative to its journal directory. */
function journalFiles(dir: string): string[] {
  return (readdirSync(join(dir, 'journal'), { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort();
}

/**
 * A data directory left by a crash after the second commit's intent was written: the first commit
 * complete, the second one's files under the commit's temp tree (the first `renamed` of them
 * already in place), its intent on disk and the checkpoint still at the first commit.
 */
async function interrupted(renamed: number): Promise<{ dir: string; complete: string }> {
  const complete = dataDir();
  const service = await openService({ dataDir: complete, clock: () => NOW });
  await service.append(first);
  await service.close();
  const dir = dataDir();
  cpSync(complete, dir, { recursive: true });
  const again = await openService({ dataDir: complete, clock: () => NOW });
  await again.append(second);
  await again.close();
  const checkpoint = JSON.parse(readFileSync(join(complete, 'journal', 'checkpoint.json'), 'utf8'));
  const added = journalFiles(complete).filter((f) => !journalFiles(dir).includes(f));
  expect(added.length).toBe(3); // a fill, a market and a position snapshot file (alpha, 06-01)
  const renames = added.map((f, i) => {
    const tmp = join(dir, 'journal', `.tmp-commit-${checkpoint.commit}`, `part_${i}.parquet`);
    const final = join(dir, 'journal', f);
    mkdirSync(dirname(tmp), { recursive: true });
    mkdirSync(dirname(final), { recursive: true });
    cpSync(join(complete, 'journal', f), tmp);
    if (i < renamed) renameSync(tmp, final);
    return [tmp, final];
  });
  writeFileSync(join(dir, 'journal', `commit-${checkpoint.commit}.intent.json`), JSON.stringify({ commit: checkpoint.commit, renames, checkpoint }));
  return { dir, complete };
}

describe('start-up recovery of a commit interrupted after its intent', () => {
  for (const renamed of [0, 2]) {
    it(`completes it (${renamed} of its files already renamed): the journal and the state are the finished commit's`, async () => {
      const { dir, complete } = await interrupted(renamed);
      const service = await openService({ dataDir: dir, clock: () => NOW });
      try {
        const leftovers = readdirSync(join(dir, 'journal')).filter((f) => f.startsWith('.tmp-') || f.endsWith('.intent.json'));
        expect(leftovers).toEqual([]);
        expect(journalFiles(dir)).toEqual(journalFiles(complete));
        expect(readFileSync(join(dir, 'journal', 'checkpoint.json'), 'utf8')).toBe(readFileSync(join(complete, 'journal', 'checkpoint.json'), 'utf8'));
        const [f] = await service.db.querySql(`SELECT count(*) AS n, max(seq) AS hi FROM fills`);
        expect(f).toEqual({ n: 2, hi: 2 });
        const [l] = await service.db.querySql(`SELECT status FROM lifecycles`);
        expect(l).toEqual({ status: 'closed' });
        expect(await diffWithRebuild(service)).toEqual({});
      } finally {
        await service.close();
      }
    });
  }
});
