import { cpSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { compactJournal } from '../../jobs/compaction.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { openService, statePath, type Service } from '../../server/service.ts';
import { at, fill, marketSnapshot, positionSnapshot, tempDataDir, tempService } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

// The derived state keeps no WAL (server/db/database.ts): its file holds the last checkpoint.
// Copying a data directory while its service is open and idle is what a kill -9 at that instant
// would leave on disk.

const A = 'AddrA111111111111111111111111111111111111111';
const t = (hhmm: string) => at(`2026-06-01T${hhmm}:00Z`);

/** Three commits on 2026-06-01: a position opened, increased and closed, snapshots with each. */
const COMMITS: IncomingBatch[] = [
  {
    fills: [fill({ time: t('01:00'), position_key: 'P1', address: A })],
    marketSnapshots: [marketSnapshot({ time: t('01:00'), index_price: 100 })],
    positionSnapshots: [positionSnapshot({ time: t('01:00'), position_key: 'P1' })],
  },
  {
    fills: [fill({ time: t('02:00'), position_key: 'P1', address: A, type: 'increase', size_delta_usd: 500, position_size_usd: 1500, price: 104, index_price: 104 })],
    marketSnapshots: [marketSnapshot({ time: t('02:00'), index_price: 104 })],
    positionSnapshots: [positionSnapshot({ time: t('02:00'), position_key: 'P1', size_usd: 1500 })],
  },
  {
    fills: [
      fill({
        time: t('03:00'),
        position_key: 'P1',
        address: A,
        type: 'close',
        size_delta_usd: -1500,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        price: 110,
        index_price: 110,
        pnl_delta_usd: 90,
      }),
    ],
    marketSnapshots: [marketSnapshot({ time: t('03:00'), index_price: 110 })],
    positionSnapshots: [],
  },
];

/** The derived watermark stored in a state file, read without opening a service on it. */
async function fileWatermark(path: string): Promise<number> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  try {
    const conn = await instance.connect();
    const rows = (await conn.runAndReadAll(`SELECT value FROM meta WHERE key = 'derived_commit'`)).getRows();
    conn.closeSync();
    return Number(rows[0]?.[0] ?? 0);
  } finally {
    instance.closeSync();
  }
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A copy of the data directory as a kill -9 now would leave it. */
function crashCopy(dir: string): string {
  const copy = tempDataDir();
  cleanups.push(copy.cleanup);
  cpSync(dir, copy.dir, { recursive: true });
  return copy.dir;
}

async function started(now = at('2026-06-02T00:30:00Z')): Promise<Service & { dir: string }> {
  const { service, dir, cleanup } = await tempService(now);
  cleanups.push(cleanup);
  return Object.assign(service, { dir });
}

describe('derived state without a WAL', () => {
  it('loses the commits after the last checkpoint to a crash, and start-up folds them in again from the journal', async () => {
    const service = await started();
    await service.append(structuredClone(COMMITS[0]!));
    await service.db.checkpoint();
    for (const batch of COMMITS.slice(1)) await service.append(structuredClone(batch));

    const copy = crashCopy(service.dir);
    expect(await fileWatermark(statePath(copy))).toBe(1); // the checkpoint's, not the journal's 3
    const reopened = await openService({ dataDir: copy });
    cleanups.push(() => reopened.close());
    const live = await service.db.querySql('SELECT status, fill_count, realized_pnl_usd::DOUBLE AS pnl FROM lifecycles');
    expect(live).toEqual([{ status: 'closed', fill_count: 3, pnl: 90 }]);
    expect(await reopened.db.querySql('SELECT status, fill_count, realized_pnl_usd::DOUBLE AS pnl FROM lifecycles')).toEqual(live);
    // the catch-up's per-batch temp tables are gone (a chunk's would hold up to a million fills' worth)
    const temps = await reopened.db.write((w) =>
      w.rows(`SELECT table_name FROM duckdb_tables()
      WHERE temporary AND table_name IN ('batch_rollup', 'account_changes', 'batch_accounts')`),
    );
    expect(temps).toEqual([]);
    expect(await diffWithRebuild(reopened)).toEqual({});
  });

  it('is on disk up to the journal before a compaction merges the commits of a day', async () => {
    const service = await started();
    await service.append(structuredClone(COMMITS[0]!));
    await service.db.checkpoint();
    for (const batch of COMMITS.slice(1)) await service.append(structuredClone(batch));
    const result = await compactJournal(service);
    expect(result.partitions).toBeGreaterThan(0);

    const copy = crashCopy(service.dir);
    // a compacted file covers commits 1..3: a state on disk at commit 1 would straddle it
    expect(await fileWatermark(statePath(copy))).toBe(3);
    const reopened = await openService({ dataDir: copy });
    cleanups.push(() => reopened.close());
    expect(await diffWithRebuild(reopened)).toEqual({});
  });
});
