import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compactJournal } from '../../jobs/compaction.ts';
import { dataPartitions } from '../../jobs/journal-files.ts';
import { computeRefresh } from '../../jobs/position-refresh.ts';
import { createApp } from '../../server/main/app.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { openService } from '../../server/service.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { answers, A, batches, journalRows, NOW } from '../helpers/compaction-journal.ts';
import { at, fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

/** One commit on today (06-03) at 00:mm: P3 grows by $100, a market snapshot, P3's event snapshot and a poll of P2. */
function todayBatch(mm: number): IncomingBatch {
  const time = at(`2026-06-03T00:${String(mm).padStart(2, '0')}:00Z`);
  const size = 1000 + 100 * (mm - 10);
  return {
    fills: [
      fill({
        time,
        position_key: 'P3',
        address: A,
        type: 'increase',
        size_delta_usd: 100,
        position_size_usd: size,
        position_collateral_usd: 100 + mm,
        collateral_delta_usd: 1,
        price: 100 + mm,
        index_price: 100 + mm,
      }),
    ],
    marketSnapshots: [marketSnapshot({ time, index_price: 100 + mm, oi_long_usd: size })],
    positionSnapshots: [
      positionSnapshot({ time, position_key: 'P3', size_usd: size, collateral_usd: 100 + mm }),
      positionSnapshot({ time, position_key: 'P2', source: 'poll', mark_price: 100 + mm, size_usd: 1500, collateral_usd: 250 }),
    ],
  };
}

const names = (dir: string, kind: 'fills' | 'market_snapshots' | 'position_snapshots', day = '2026-06-03'): string[] =>
  dataPartitions(dir, kind)
    .find((p) => p.day === day)!
    .files.map((f) => f.name);

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  vi.restoreAllMocks();
});

describe("journal compaction of today's partitions", () => {
  it('merges the run of small files as they are (polls too), then only the files after a frozen one', async () => {
    app = await openTestApp({ now: NOW, batches: [...batches(), todayBatch(11), todayBatch(12), todayBatch(13)] });
    const before = await answers(app);
    const rows = Object.fromEntries(await Promise.all((['fills', 'market_snapshots', 'position_snapshots'] as const).map(async (k) => [k, await journalRows(app!, k)])));
    // commits 6..9 are today's: four files per kind, below the default run length
    expect(await compactJournal(app.service, { before: '2026-06-01' })).toMatchObject({ partitions: 0, merged: 0 });

    const r = await compactJournal(app.service, { before: '2026-06-01', openRunMinFiles: 3 });
    // `before` closes no day here: every partition of three files or more is merged as an open one,
    // today's three kinds (four files each) and 06-01's market snapshots (three)
    expect(r).toEqual({ partitions: 0, filesBefore: 0, merged: 4, mergedFiles: 4 + 3 + 4 + 4, pollsDropped: 0, skipped: 0 });
    expect(names(app.dir, 'fills')).toEqual(['000000000006-000000000009.parquet']);
    expect(names(app.dir, 'position_snapshots')).toEqual(['000000000006-000000000009.parquet']);
    for (const [kind, before] of Object.entries(rows)) expect(await journalRows(app, kind)).toEqual(before);
    // journal order kept: P2's polls of today in commit order
    const polls = await app.service.db.querySql(`SELECT mark_price FROM read_parquet('${join(app.dir, 'journal/position_snapshots/protocol=alpha/day=2026-06-03/*.parquet')}') WHERE source = 'poll'`);
    expect(polls.map((p) => p.mark_price)).toEqual([111, 112, 113]);
    expect(await answers(app)).toEqual(before);
    expect(await diffWithRebuild(app.service)).toEqual({});

    // a file at least this large is frozen: only the files after it are merged (a one-commit
    // file of these few rows is smaller than the merged one of four commits)
    const fills = join(app.dir, 'journal/fills/protocol=alpha/day=2026-06-03');
    const frozen = statSync(join(fills, '000000000006-000000000009.parquet')).size;
    for (const mm of [14, 15, 16]) await app.service.append(todayBatch(mm));
    expect(
      readdirSync(fills)
        .map((f) => statSync(join(fills, f)).size)
        .filter((size) => size < frozen),
    ).toHaveLength(3);
    const again = await compactJournal(app.service, { openRunMinFiles: 3, openRunFrozenBytes: frozen });
    expect(again).toMatchObject({ skipped: 0 });
    expect(names(app.dir, 'fills')).toEqual(['000000000006-000000000009.parquet', '000000000010-000000000012.parquet']);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });

  it('merges the run even when an append lands in the partition during the copy; the new file stays after it', async () => {
    app = await openTestApp({ now: NOW, batches: [...batches(), todayBatch(11), todayBatch(12)] });
    let raced = false;
    const r = await compactJournal(app.service, {
      openRunMinFiles: 3,
      onCopied: async (p) => {
        if (p.kind === 'fills' && p.day === '2026-06-03' && !raced) {
          raced = true;
          await app!.service.append(todayBatch(13));
        }
      },
    });
    expect(r.skipped).toBe(0);
    expect(names(app.dir, 'fills')).toEqual(['000000000006-000000000008.parquet', '000000000009-000000000009.parquet']);
    const [n] = await app.service.db.querySql(`SELECT count(*) AS n FROM read_parquet('${join(app.dir, 'journal/fills/*/*/*.parquet')}')`);
    expect(n!.n).toBe(9);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });

  it('recovers a merge that crashed between the rename and the deletes', async () => {
    app = await openTestApp({ now: NOW, batches: [...batches(), todayBatch(11), todayBatch(12)] });
    const before = await answers(app);
    const fills = await journalRows(app, 'fills');
    await expect(compactJournal(app.service, { before: '2026-06-01', openRunMinFiles: 3, failAt: 'renamed' })).rejects.toThrow('failpoint renamed');
    await app.service.close();
    const reopened = await openService({ dataDir: app.dir, clock: () => NOW });
    try {
      expect(readdirSync(join(app.dir, 'journal')).filter((f) => f.startsWith('.tmp-') || f.includes('intent'))).toEqual([]);
      expect(names(app.dir, 'fills')).toEqual(['000000000006-000000000008.parquet']);
      expect(await journalRows(app, 'fills', reopened)).toEqual(fills);
      expect(await answers(app, createApp(reopened, app.keys, app.limits))).toEqual(before);
      expect(await diffWithRebuild(reopened)).toEqual({});
    } finally {
      await reopened.close();
    }
  });

  it('lets the position refresh list the market snapshots again when a merge replaced one it listed', async () => {
    // a market snapshot after the last poll, so that the refresh has positions to re-mark
    const market = { fills: [], marketSnapshots: [marketSnapshot({ time: at('2026-06-03T00:13:00Z'), index_price: 120 })], positionSnapshots: [] };
    app = await openTestApp({ now: NOW, batches: [...batches(), todayBatch(11), todayBatch(12), market] });
    const expected = await computeRefresh(app.service);
    expect(expected.rows.length).toBeGreaterThan(0);
    const service = app.service;
    const querySql = service.db.querySql.bind(service.db);
    let merges = 0;
    const spy = vi.spyOn(service.db, 'querySql').mockImplementation(async (sql, params) => {
      // the first read of the refresh: today's market-snapshot files are merged after it listed them
      if (sql.includes('read_parquet') && merges === 0) merges = (await compactJournal(service, { openRunMinFiles: 2 })).merged;
      return querySql(sql, params);
    });
    expect(await computeRefresh(service)).toEqual(expected);
    expect(merges).toBeGreaterThan(0);
    expect(spy.mock.calls.filter(([sql]) => sql.includes('read_parquet'))).toHaveLength(2);
  });
});
