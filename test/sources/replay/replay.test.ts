import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshRollups } from '../../../jobs/rollup-refresh.ts';
import { REPLAY_SOURCE, runReplay } from '../../../server/sources/replay/source.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { createApp } from '../../../server/main/app.ts';
import { KeyStore } from '../../../server/keys/store.ts';
import { openLimits } from '../../../server/limits/gate.ts';
import { openService, statePath, type Service } from '../../../server/service.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';
import { diffWithRebuild } from '../../helpers/rebuild-diff.ts';

const NOW = Date.UTC(2026, 4, 3, 12);
let source: { dir: string; cleanup: () => void };
let counts: { fills: number; market: number; position: number };

/** A small simulated journal (2026-05-01 to 05-02 06:00, with market and position snapshots). */
beforeAll(async () => {
  source = tempDataDir();
  const service = await openService({ dataDir: source.dir, clock: () => NOW });
  const sim = new Simulator({ seed: 11, start: Date.UTC(2026, 4, 1), snapshotsFrom: Date.UTC(2026, 4, 1) });
  for (const b of sim.advance(Date.UTC(2026, 4, 2, 6))) await service.append(b);
  const [c] = await service.db.querySql(
    `SELECT (SELECT count(*) FROM fills) AS fills, (SELECT count(*) FROM read_parquet('${join(source.dir, 'journal/market_snapshots/*/*/*.parquet')}')) AS market,
            (SELECT count(*) FROM read_parquet('${join(source.dir, 'journal/position_snapshots/*/*/*.parquet')}')) AS position`,
  );
  counts = c as typeof counts;
  await service.close();
});
afterAll(() => source.cleanup());

/** Journal rows of a data directory, every column, in a canonical order. */
async function journal(service: Service, kind: string, exclude = ''): Promise<unknown[]> {
  return service.db.querySql(`SELECT * EXCLUDE (day${exclude}) FROM read_parquet('${join(service.dataDir, 'journal', kind, '*/*/*.parquet')}', hive_partitioning = true) ORDER BY ALL`);
}

const URLS = [
  '/v1/protocols/stats',
  '/v1/alpha/markets/stats',
  '/v1/beta/markets/stats',
  '/v1/alpha/open-positions/search?limit=200',
  '/v1/alpha/open-positions/stats',
  '/v1/alpha/accounts/search?limit=100',
  '/v1/alpha/volume/history?interval=1h&from=2026-05-01T00:00:00Z&to=2026-05-02T06:00:00Z',
  '/v1/alpha/open-interest/history?interval=1h&from=2026-05-01T00:00:00Z&to=2026-05-02T06:00:00Z',
  '/v1/alpha/liquidations/search?limit=100',
];

async function answers(service: Service): Promise<unknown[]> {
  const keys = KeyStore.open(service.dataDir);
  const limits = openLimits(service.dataDir, { flushMs: 0 });
  const app = createApp(service, keys, limits);
  const key = keys.create({ plan: 'internal', label: 'replay test' }).key;
  const out = [];
  for (const url of URLS) {
    const res = await app.request(url, { headers: { 'x-api-key': key } });
    out.push({ url, status: res.status, body: await res.json() });
  }
  limits.close();
  return out;
}

describe('replay source', () => {
  it('re-streams a journal into an empty data directory: the same fills, snapshots and answers', async () => {
    expect(counts.fills).toBeGreaterThan(500);
    const target = tempDataDir();
    const src = await openService({ dataDir: source.dir, clock: () => NOW });
    const dst = await openService({ dataDir: target.dir, clock: () => NOW });
    try {
      const r = await runReplay(dst, { from: source.dir, speed: 'max' });
      expect(r).toEqual({ fills: counts.fills, duplicates: 0, done: true });
      // seq and position_id are reassigned, and come out the same (the source's seq order is its time order)
      expect(await journal(dst, 'fills')).toEqual(await journal(src, 'fills'));
      expect(await journal(dst, 'market_snapshots')).toEqual(await journal(src, 'market_snapshots'));
      expect(await journal(dst, 'position_snapshots')).toEqual(await journal(src, 'position_snapshots'));
      const a = await answers(src);
      expect(a.every((x) => (x as { status: number }).status === 200)).toBe(true);
      expect(await answers(dst)).toEqual(a);
      // a second run finds everything done
      expect(await runReplay(dst, { from: source.dir, speed: 'max' })).toEqual({ fills: 0, duplicates: 0, done: true });
      // into an empty state and run to its end: its rollups are marked refreshed, and are a rebuild's
      expect(await refreshRollups(dst)).toEqual({ fillBuckets: 0, snapshotBuckets: 0, seq: counts.fills, commit: expect.any(Number) });
      expect(await diffWithRebuild(dst)).toEqual({});
    } finally {
      await src.close();
      await dst.close();
      target.cleanup();
    }
  });

  it('paces by the source clock × speed, and a restart mid-replay resumes with no duplicate', async () => {
    const target = tempDataDir();
    try {
      // 30 h of source time in 1.6 s of wall time; stopped after ~0.6 s
      const speed = (30 * 3_600_000) / 1600;
      let dst = await openService({ dataDir: target.dir, clock: () => NOW });
      const abort = new AbortController();
      const started = performance.now();
      setTimeout(() => abort.abort(), 600);
      const first = await runReplay(dst, { from: source.dir, speed, signal: abort.signal, tickMs: 50 });
      expect(performance.now() - started).toBeGreaterThanOrEqual(550);
      expect(first.done).toBe(false);
      expect(first.fills).toBeGreaterThan(0);
      expect(first.fills).toBeLessThan(counts.fills * 0.8);
      const cursor = (dst.sourceCheckpoint(REPLAY_SOURCE) as { cursor: number }).cursor;
      const [last] = await dst.db.querySql('SELECT epoch_ms(max(time)) AS t FROM fills');
      expect(cursor).toBeGreaterThan(last!.t as number);
      // "restart": reopen the data directory and continue, at full speed this time
      await dst.close();
      dst = await openService({ dataDir: target.dir, clock: () => NOW });
      const second = await runReplay(dst, { from: source.dir, speed: 'max' });
      expect(second).toMatchObject({ duplicates: 0, done: true });
      expect(first.fills + second.fills).toBe(counts.fills);
      const [f] = await dst.db.querySql('SELECT count(*) AS n, count(DISTINCT (protocol, tx, event_index)) AS keys, max(seq) AS hi FROM fills');
      expect(f).toEqual({ n: counts.fills, keys: counts.fills, hi: counts.fills });
      // stopped, then resumed on a non-empty state: nothing marked, the refresh recomputes every bucket
      const [buckets] = await dst.db.querySql('SELECT count(*)::INTEGER AS n FROM rollup_5m');
      expect((await refreshRollups(dst)).fillBuckets).toBe(buckets!.n);
      const src = await openService({ dataDir: source.dir, clock: () => NOW });
      try {
        expect(await journal(dst, 'fills')).toEqual(await journal(src, 'fills'));
        expect((await journal(dst, 'position_snapshots')).length).toBe(counts.position);
      } finally {
        await src.close();
      }
      await dst.close();
      expect(statePath(target.dir)).toContain(target.dir);
    } finally {
      target.cleanup();
    }
  });
});
