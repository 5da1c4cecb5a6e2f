/**
 * Market snapshot files written before `index_price_time` / `index_price_source` existed, and fill
 * files written before `position_entry_price`, sit in the same journal as new ones: every reader
 * of those files (rebuild, compaction, rollup and position refresh, price candles, replay) reads
 * both, old rows with nulls in the new columns.
 */
import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compactJournal } from '../../jobs/compaction.ts';
import { computeRefresh } from '../../jobs/position-refresh.ts';
import { refreshRollups } from '../../jobs/rollup-refresh.ts';
import { ReplayReader } from '../../server/sources/replay/reader.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { answers, batches, NOW } from '../helpers/compaction-journal.ts';
import { at } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const OLD_DAY = 'journal/market_snapshots/protocol=alpha/day=2026-06-01';

/** Rewrites every market snapshot file of 06-01 in the shape the journal had before the two columns. */
async function makeOldShape(t: TestApp): Promise<void> {
  const dir = join(t.dir, OLD_DAY);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const tmp = `${path}.old`;
    await t.service.db.querySql(`COPY (SELECT * EXCLUDE (index_price_time, index_price_source) FROM read_parquet('${path}')) TO '${tmp}' (FORMAT parquet)`);
    renameSync(tmp, path);
  }
  const cols = await t.service.db.querySql(`SELECT DISTINCT name FROM parquet_schema('${dir}/*.parquet') WHERE name LIKE 'index_price%'`);
  expect(cols.map((c) => c.name)).toEqual(['index_price']);
}

/** Every market snapshot row of the journal, read by name, ordered by time. */
async function snapshotRows(t: TestApp): Promise<{ time: string; index_price: number; index_price_time: string | null; index_price_source: string | null }[]> {
  const glob = join(t.dir, 'journal/market_snapshots/**/*.parquet');
  return (await t.service.db.querySql(
    `SELECT strftime(time, '%Y-%m-%dT%H:%M') AS time, index_price, strftime(index_price_time, '%Y-%m-%dT%H:%M:%S') AS index_price_time, index_price_source
     FROM read_parquet('${glob}', hive_partitioning = true, union_by_name = true) ORDER BY time`,
  )) as never;
}

describe('journal columns added later', () => {
  it('old-shape files and new ones are read together by every reader, old rows with nulls', async () => {
    const all = batches();
    app = await openTestApp({ now: NOW, batches: all.slice(0, 3) });
    await makeOldShape(app);
    // a journal of old-shape files only: rebuild and replay see the new columns as null
    expect(await diffWithRebuild(app.service)).toEqual({});
    const oldOnly = await new ReplayReader(app.service.db, app.dir).read(at('2026-06-01T00:00:00Z'), at('2026-06-02T00:00:00Z'));
    expect(oldOnly.marketSnapshots.map((s) => [s.index_price, s.index_price_time, s.index_price_source])).toEqual([
      [100, null, null],
      [101, null, null],
      [104, null, null],
      [99, null, null],
    ]);
    // later appends carry the new columns (an oracle price published 20 s before the snapshot)
    for (const b of all.slice(3)) {
      for (const s of b.marketSnapshots) Object.assign(s, { index_price_time: s.time - 20_000, index_price_source: 'oracle' });
      await app.service.append(b);
    }

    const rows = await snapshotRows(app);
    expect(rows.map((r) => [r.time, r.index_price, r.index_price_time, r.index_price_source])).toEqual([
      ['2026-06-01T01:00', 100, null, null],
      ['2026-06-01T01:05', 101, null, null],
      ['2026-06-01T05:00', 104, null, null],
      ['2026-06-01T23:55', 99, null, null],
      ['2026-06-02T01:00', 110, '2026-06-02T00:59:40', 'oracle'],
      ['2026-06-02T03:00', 112, '2026-06-02T02:59:40', 'oracle'],
      ['2026-06-03T00:10', 115, '2026-06-03T00:09:40', 'oracle'],
    ]);

    // rebuild from the mixed journal equals the live state; the rollup and position jobs read it
    expect(await diffWithRebuild(app.service)).toEqual({});
    await refreshRollups(app.service);
    await computeRefresh(app.service);
    const before = await answers(app);
    expect(before.filter((b) => (b as { status: number }).status !== 200)).toEqual([]);

    // price candles read snapshots of both shapes
    const candles = await app.get('/v1/alpha/prices/history?market=SOL-PERP&interval=1d&from=2026-06-01T00:00:00Z&to=2026-06-03T00:00:00Z', 'internal');
    expect(candles.status).toBe(200);
    const body = (await candles.json()) as { data: { time: string; open: number; close: number }[] };
    expect(body.data.map((c) => [c.time, c.open, c.close])).toEqual([
      ['2026-06-01T00:00:00.000Z', 100, 99],
      ['2026-06-02T00:00:00.000Z', 110, 112],
    ]);

    // replay reads both shapes as incoming rows
    const replay = await new ReplayReader(app.service.db, app.dir).read(at('2026-06-01T00:00:00Z'), at('2026-06-04T00:00:00Z'));
    expect(replay.marketSnapshots.map((s) => [s.index_price, s.index_price_time === null ? null : Number(s.index_price_time), s.index_price_source])).toEqual([
      [100, null, null],
      [101, null, null],
      [104, null, null],
      [99, null, null],
      [110, at('2026-06-02T00:59:40Z'), 'oracle'],
      [112, at('2026-06-02T02:59:40Z'), 'oracle'],
      [115, at('2026-06-03T00:09:40Z'), 'oracle'],
    ]);

    // compaction merges old-shape files into one file of the current shape, nulls kept
    expect((await compactJournal(app.service)).partitions).toBeGreaterThan(0);
    expect(readdirSync(join(app.dir, OLD_DAY))).toHaveLength(1);
    const compactedCols = await app.service.db.querySql(`SELECT name FROM parquet_schema('${join(app.dir, OLD_DAY)}/*.parquet') WHERE name LIKE 'index_price%' ORDER BY name`);
    expect(compactedCols.map((c) => c.name)).toEqual(['index_price', 'index_price_source', 'index_price_time']);
    expect(await snapshotRows(app)).toEqual(rows);
    expect(await answers(app)).toEqual(before);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });

  it('fill files written before position_entry_price are read with fills that carry it: rebuild, replay, refresh, compaction', async () => {
    const FILL_DAY = 'journal/fills/protocol=alpha/day=2026-06-01';
    const all = batches();
    app = await openTestApp({ now: NOW, batches: all.slice(0, 3) });
    const dir = join(app.dir, FILL_DAY);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      await app.service.db.querySql(`COPY (SELECT * EXCLUDE (position_entry_price) FROM read_parquet('${path}')) TO '${path}.old' (FORMAT parquet)`);
      renameSync(`${path}.old`, path);
    }
    const ownEntryCols = async () => (await app!.service.db.querySql(`SELECT count(*)::INTEGER AS n FROM parquet_schema('${dir}/*.parquet') WHERE name = 'position_entry_price'`))[0]!.n;
    expect(await ownEntryCols()).toBe(0);
    expect(await diffWithRebuild(app.service)).toEqual({});
    // later fills carry the own entry (here the served one plus 1, to tell them apart)
    for (const b of all.slice(3)) {
      for (const f of b.fills) f.position_entry_price = f.entry_price + 1;
      await app.service.append(b);
    }
    expect(await diffWithRebuild(app.service)).toEqual({});
    const derived = await app.service.db.querySql('SELECT position_key, position_entry_price FROM fills ORDER BY seq');
    expect(derived.map((r) => [r.position_key, r.position_entry_price])).toEqual([
      ['P1', null],
      ['P2', null],
      ['P1', null],
      ['P1', 101],
      ['P2', 101],
      ['P3', 101],
    ]);
    const replay = await new ReplayReader(app.service.db, app.dir).read(at('2026-06-01T00:00:00Z'), at('2026-06-04T00:00:00Z'));
    expect(replay.fills.map((f) => f.position_entry_price)).toEqual([null, null, null, 101, 101, 101]);
    const { rows } = await computeRefresh(app.service);
    expect(rows.map((r) => r.position_key)).toEqual(['P2']); // P3 is marked at its own fill's minute already
    // compaction rewrites the old-shape day in the current shape, nulls kept
    const before = await answers(app);
    expect((await compactJournal(app.service)).partitions).toBeGreaterThan(0);
    expect(readdirSync(dir)).toHaveLength(1);
    expect(await ownEntryCols()).toBe(1);
    expect(await answers(app)).toEqual(before);
    expect(await diffWithRebuild(app.service)).toEqual({});
  });
});
