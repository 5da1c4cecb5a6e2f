import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compactJournal, type CompactionFailpoint } from '../../jobs/compaction.ts';
import { dataPartitions } from '../../jobs/journal-files.ts';
import { createApp } from '../../server/main/app.ts';
import { openService } from '../../server/service.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { answers, A, batches, journalRows, NOW } from '../helpers/compaction-journal.ts';
import { at, fill } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('journal compaction', () => {
  it('compacts closed days into one zstd file each, keeps every answer, drops old polls', async () => {
    app = await openTestApp({ now: NOW, batches: batches() });
    const before = await answers(app);
    expect(before.filter((b) => (b as { status: number }).status !== 200)).toEqual([]);
    const fillRows = await journalRows(app, 'fills');
    const marketRows = await journalRows(app, 'market_snapshots');
    const positionRows = await journalRows(app, 'position_snapshots');
    const schemaBefore = await app.service.db.querySql(
      `SELECT name, type, converted_type, scale, precision FROM parquet_schema('${join(app.dir, 'journal/fills/protocol=alpha/day=2026-06-01')}/*.parquet') ORDER BY file_name, name`,
    );

    const r = await compactJournal(app.service);
    // fills: 06-01 (2 files); market: 06-01 (3); positions: 06-01 (2), 06-02 (2); 06-02 fills and market: 2 each
    expect(r).toEqual({ partitions: 6, filesBefore: 13, merged: 0, mergedFiles: 0, pollsDropped: 3, skipped: 0 });

    const layout = Object.fromEntries(
      (['fills', 'market_snapshots', 'position_snapshots'] as const).map((k) => [k, dataPartitions(app!.dir, k).map((p) => `${p.day}:${p.files.map((f) => f.name).join(',')}`)]),
    );
    expect(layout).toEqual({
      fills: ['2026-06-01:000000000001-000000000003.parquet', '2026-06-02:000000000004-000000000005.parquet', '2026-06-03:000000000006-000000000006.parquet'],
      market_snapshots: ['2026-06-01:000000000001-000000000003.parquet', '2026-06-02:000000000004-000000000005.parquet', '2026-06-03:000000000006-000000000006.parquet'],
      position_snapshots: ['2026-06-01:000000000001-000000000002.parquet', '2026-06-02:000000000004-000000000005.parquet', '2026-06-03:000000000006-000000000006.parquet'],
    });
    const [codec] = await app.service.db.querySql(
      `SELECT DISTINCT compression FROM parquet_metadata('${join(app.dir, 'journal/fills/protocol=alpha/day=2026-06-01/000000000001-000000000003.parquet')}')`,
    );
    expect(codec).toEqual({ compression: 'ZSTD' });
    const schemaAfter = await app.service.db.querySql(
      `SELECT name, type, converted_type, scale, precision FROM parquet_schema('${join(app.dir, 'journal/fills/protocol=alpha/day=2026-06-01')}/*.parquet') ORDER BY file_name, name`,
    );
    expect(schemaAfter).toEqual(schemaBefore.slice(0, schemaAfter.length));

    // same rows (fills and market snapshots), same order of fills; of P2's polls only the last per day is left
    expect(await journalRows(app, 'fills')).toEqual(fillRows);
    expect(await journalRows(app, 'market_snapshots')).toEqual(marketRows);
    const polls = (await journalRows(app, 'position_snapshots')).filter((p) => p.source === 'poll').map((p) => [p.time, p.mark_price]);
    expect(polls).toEqual([
      ['2026-06-01T06:00:00.000Z', 106],
      ['2026-06-02T04:00:00.000Z', 113],
    ]);
    expect((await journalRows(app, 'position_snapshots')).length).toBe(positionRows.length - 3);
    const seqs = await app.service.db.querySql(`SELECT seq FROM read_parquet('${join(app.dir, 'journal/fills/protocol=alpha/day=2026-06-01/*.parquet')}')`);
    expect(seqs.map((s) => s.seq)).toEqual([1, 2, 3]);

    expect(await answers(app)).toEqual(before);
    expect(await diffWithRebuild(app.service)).toEqual({});
    // nothing left to do; a late fill for a closed day makes it compactable again
    expect((await compactJournal(app.service)).partitions).toBe(0);
    await app.service.append({ fills: [fill({ time: at('2026-06-01T12:00:00Z'), position_key: 'P4' })], marketSnapshots: [], positionSnapshots: [] });
    expect(await compactJournal(app.service)).toMatchObject({ partitions: 1, filesBefore: 2 });
    expect(dataPartitions(app.dir, 'fills')[0]!.files.map((f) => f.name)).toEqual(['000000000001-000000000007.parquet']);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });

  it('leaves a partition alone when an append lands in it during the copy, and compacts it next run', async () => {
    app = await openTestApp({ now: NOW, batches: batches() });
    const late = fill({ time: at('2026-06-01T20:00:00Z'), position_key: 'P9', address: A });
    const r = await compactJournal(app.service, {
      onCopied: async (p) => {
        if (p.kind === 'fills' && p.day === '2026-06-01') await app!.service.append({ fills: [late], marketSnapshots: [], positionSnapshots: [] });
      },
    });
    expect(r.skipped).toBe(1);
    expect(dataPartitions(app.dir, 'fills')[0]!.files.map((f) => f.name)).toEqual(['000000000001-000000000002.parquet', '000000000003-000000000003.parquet', '000000000007-000000000007.parquet']);
    expect(await compactJournal(app.service)).toMatchObject({ partitions: 1, skipped: 0 });
    expect(dataPartitions(app.dir, 'fills')[0]!.files.map((f) => f.name)).toEqual(['000000000001-000000000007.parquet']);
    const [n] = await app.service.db.querySql(`SELECT count(*) AS n FROM read_parquet('${join(app.dir, 'journal/fills/*/*/*.parquet')}')`);
    expect(n!.n).toBe(7);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });

  for (const step of ['copied', 'intent', 'renamed', 'removed'] as CompactionFailpoint[]) {
    it(`recovers from a crash after "${step}": the journal is either untouched or fully compacted`, async () => {
      app = await openTestApp({ now: NOW, batches: batches() });
      const before = await answers(app);
      const fillRows = await journalRows(app, 'fills');
      await expect(compactJournal(app.service, { failAt: step })).rejects.toThrow(`failpoint ${step}`);
      expect(await answers(app)).toEqual(before); // the running service is unaffected either way
      // "restart": recovery runs when the data directory is opened again
      await app.service.close();
      const reopened = await openService({ dataDir: app.dir, clock: () => NOW });
      try {
        const leftovers = readdirSync(join(app.dir, 'journal')).filter((f) => f.startsWith('.tmp-') || f.includes('intent'));
        expect(leftovers).toEqual([]);
        const fills0601 = dataPartitions(app.dir, 'fills')[0]!.files.map((f) => f.name);
        expect(fills0601).toEqual(step === 'copied' ? ['000000000001-000000000002.parquet', '000000000003-000000000003.parquet'] : ['000000000001-000000000003.parquet']);
        expect(await journalRows(app, 'fills', reopened)).toEqual(fillRows);
        expect(await answers(app, createApp(reopened, app.keys, app.limits))).toEqual(before);
        // and the next run finishes the job
        await compactJournal(reopened);
        expect(dataPartitions(app.dir, 'fills').map((p) => p.files.length)).toEqual([1, 1, 1]);
        expect(await journalRows(app, 'fills', reopened)).toEqual(fillRows);
        expect(await diffWithRebuild(reopened)).toEqual({});
        expect(await answers(app, createApp(reopened, app.keys, app.limits))).toEqual(before);
      } finally {
        await reopened.close();
      }
    });
  }
});
