import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compactJournal } from '../../jobs/compaction.ts';
import { rebuildState } from '../../server/derive/rebuild.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { openService, statePath, type Service } from '../../server/service.ts';
import { at, fill, positionSnapshot, tempDataDir } from '../helpers/fixtures.ts';
import { diffStates } from '../helpers/state-diff.ts';
import { openTestApp } from '../helpers/app.ts';
import { batches as compactionBatches, NOW as COMPACTION_NOW } from '../helpers/compaction-journal.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

const T0 = at('2026-06-01T00:00:00Z');
const MIN = 60_000;

/** Two batches as a source emits them: fills with their event snapshots, then a poll of every open position. */
function batches(): IncomingBatch[] {
  return [
    {
      fills: [fill({ time: T0, tx: 'OPEN1', position_key: 'POS1' }), fill({ time: T0, tx: 'OPEN2', position_key: 'POS2', side: 'short' })],
      marketSnapshots: [],
      positionSnapshots: [
        positionSnapshot({ time: T0, position_key: 'POS1' }),
        positionSnapshot({ time: T0, position_key: 'POS2' }),
        positionSnapshot({ time: T0 + MIN, position_key: 'POS1', source: 'poll', mark_price: 101 }),
        positionSnapshot({ time: T0 + MIN, position_key: 'POS2', source: 'poll', mark_price: 101 }),
      ],
      checkpoint: { step: 1 },
    },
    {
      fills: [
        fill({ time: T0 + 2 * MIN, tx: 'INC1', position_key: 'POS1', type: 'increase', size_delta_usd: 500, position_size_usd: 1500, collateral_delta_usd: 0 }),
        fill({
          time: T0 + 2 * MIN,
          tx: 'CLOSE2',
          position_key: 'POS2',
          side: 'short',
          type: 'close',
          size_delta_usd: -1000,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
        }),
      ],
      marketSnapshots: [],
      positionSnapshots: [
        positionSnapshot({ time: T0 + 2 * MIN, position_key: 'POS1', size_usd: 1500 }),
        positionSnapshot({ time: T0 + 2 * MIN, position_key: 'POS2', size_usd: 0, collateral_usd: 0 }),
        positionSnapshot({ time: T0 + 3 * MIN, position_key: 'POS1', source: 'poll', size_usd: 1500, mark_price: 102 }),
      ],
      checkpoint: { step: 2 },
    },
  ];
}

/** The journal's position snapshots grouped by their dedup key, with how many rows each key has. */
async function snapshotKeys(service: Service, dir: string) {
  return service.db.querySql(
    `SELECT protocol, position_key, source, epoch_ms(time) AS t, count(*)::INTEGER AS n
     FROM read_parquet('${join(dir, 'journal/position_snapshots/**/*.parquet')}', hive_partitioning = true)
     GROUP BY ALL ORDER BY t, position_key, source`,
  );
}

describe('position snapshot dedup key', () => {
  let done: (() => void) | undefined;
  afterEach(() => {
    done?.();
    done = undefined;
  });

  it('a batch re-emitted after a crash and restart adds no snapshot, and the state equals a rebuild', async () => {
    const { dir, cleanup } = tempDataDir();
    done = cleanup;
    let service = await openService({ dataDir: dir, clock: () => T0 + 10 * MIN });
    for (const b of batches()) await service.append(b, { source: 'test' });
    const once = await snapshotKeys(service, dir);
    expect(once.map((r) => r.n)).toEqual(once.map(() => 1));
    expect(once).toHaveLength(7);
    await service.close();

    // the restarted source resumes from an older saved state: both batches come again, as new objects
    service = await openService({ dataDir: dir, clock: () => T0 + 10 * MIN });
    try {
      for (const b of batches()) {
        const r = await service.append(b, { source: 'test' });
        expect(r.duplicates).toBe(2);
      }
      // and once more within one process (a live source retrying a batch it thought failed)
      for (const b of batches()) await service.append(b, { source: 'test' });
      expect(await snapshotKeys(service, dir)).toEqual(once);

      await service.db.checkpoint();
      await rebuildState(dir, join(dir, 'rebuilt.duckdb'));
      const diff = await diffStates(statePath(dir), join(dir, 'rebuilt.duckdb'));
      for (const [table, d] of Object.entries(diff)) expect({ table, onlyA: d.onlyA, onlyB: d.onlyB }).toEqual({ table, onlyA: 0, onlyB: 0 });
    } finally {
      await service.close();
    }
  });

  it('an event snapshot whose fill is a duplicate is dropped even when it is newer than the kept one', async () => {
    const { dir, cleanup } = tempDataDir();
    done = cleanup;
    const service = await openService({ dataDir: dir, clock: () => T0 + 10 * MIN });
    try {
      const open = fill({ time: T0, tx: 'OPENX', position_key: 'POSX' });
      await service.append({ fills: [open], marketSnapshots: [], positionSnapshots: [] });
      // the same fill again, now with an event snapshot at its instant: the fill's key says both are in
      await service.append({ fills: [{ ...open }], marketSnapshots: [], positionSnapshots: [positionSnapshot({ time: T0, position_key: 'POSX' })] });
      expect(existsSync(join(dir, 'journal/position_snapshots'))).toBe(false);
    } finally {
      await service.close();
    }
  });

  it('closed-day compaction keeps one copy of exact duplicates a journal got before the key was enforced', async () => {
    const app = await openTestApp({ now: COMPACTION_NOW, batches: compactionBatches() });
    done = () => void app.close();
    const day = join(app.dir, 'journal/position_snapshots/protocol=alpha/day=2026-06-01');
    expect(readdirSync(day)).toContain('000000000001-000000000001.parquet');
    // commit 3 wrote no position snapshot that day: its name holds a re-emitted copy of commit 1's
    copyFileSync(join(day, '000000000001-000000000001.parquet'), join(day, '000000000003-000000000003.parquet'));
    const dupes = async () =>
      (await app.service.db.querySql(`SELECT count(*)::INTEGER AS n FROM (SELECT 1 FROM read_parquet('${day}/*.parquet') GROUP BY position_key, source, time HAVING count(*) > 1)`))[0]!.n;
    expect(await dupes()).toBeGreaterThan(0);
    await compactJournal(app.service);
    expect(await dupes()).toBe(0);
    const [events] = await app.service.db.querySql(`SELECT count(*)::INTEGER AS n FROM read_parquet('${day}/*.parquet') WHERE source = 'event'`);
    expect(events!.n).toBe(1);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });
});
