import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { refreshRollups } from '../../jobs/rollup-refresh.ts';
import { rebuildState } from '../../server/derive/rebuild.ts';
import { openService, statePath, type Service } from '../../server/service.ts';
import { backfillSimulator } from '../../server/sources/simulate/source.ts';
import { at, fill, marketSnapshot, tempDataDir, tempService } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const snaps = (from: string, minutes: number, rate: number) =>
  Array.from({ length: minutes }, (_, i) => marketSnapshot({ time: at(from) + i * 60_000, oi_long_usd: 1000 + i, funding_rate_long: rate * (i + 1), funding_rate_short: -rate }));

describe('rollup refresh', () => {
  it('recomputes exactly the buckets touched since its last run, repairing drift there', async () => {
    const t = await tempService(at('2026-06-02T00:00:00Z'));
    cleanup = t.cleanup;
    const { service } = t;
    await service.append({
      fills: [
        fill({ time: at('2026-06-01T10:01:00Z'), position_key: 'A' }),
        fill({ time: at('2026-06-01T11:02:00Z'), position_key: 'B', side: 'short' }),
        fill({ time: at('2026-05-01T11:02:00Z'), position_key: 'C', side: 'short' }), // another chunk of days
      ],
      marketSnapshots: snaps('2026-06-01T10:00:00Z', 10, 0.0001),
      positionSnapshots: [],
    });
    // first run: no watermark yet, so every bucket is recomputed
    const first = await refreshRollups(service);
    expect(first).toMatchObject({ fillBuckets: 3, snapshotBuckets: 2, seq: 3 });
    expect(await diffWithRebuild(service)).toEqual({});

    // a second batch touches the 10:00 fill bucket and the 10:05 snapshot bucket / 10:00 hour
    await service.append({
      fills: [fill({ time: at('2026-06-01T10:03:00Z'), position_key: 'A', type: 'increase', size_delta_usd: 500, position_size_usd: 1500 })],
      marketSnapshots: snaps('2026-06-01T10:10:00Z', 1, 0.0002),
      positionSnapshots: [],
    });
    // drift in touched buckets (10:00 fills, 10:10 OI, 10:00 funding) and in untouched ones (11:00 fills, 10:00 OI)
    await service.db.write(async (w) => {
      await w.exec(`UPDATE rollup_5m SET volume_usd = volume_usd + 7, fill_count = fill_count + 1 WHERE bucket = TIMESTAMP '2026-06-01 10:00:00'`);
      await w.exec(`UPDATE rollup_5m SET fees_usd = fees_usd + 1 WHERE bucket = TIMESTAMP '2026-06-01 11:00:00'`);
      await w.exec(`UPDATE oi_snapshot_5m SET oi_long_usd = 1 WHERE bucket = TIMESTAMP '2026-06-01 10:10:00'`);
      await w.exec(`UPDATE oi_snapshot_5m SET oi_short_usd = 3 WHERE bucket = TIMESTAMP '2026-06-01 10:00:00'`);
      await w.exec(`UPDATE funding_1h SET snapshots = 99`);
      // the daily rows of the touched day (`GET /v1/alpha/open-interest/history`'s past) drift too
      await w.exec(`UPDATE rollup_1d SET oi_long_delta_usd = oi_long_delta_usd + 5 WHERE bucket = TIMESTAMP '2026-06-01'`);
      await w.exec(`UPDATE oi_snapshot_1d SET oi_long_usd = 2 WHERE bucket = TIMESTAMP '2026-06-01'`);
    });
    const second = await refreshRollups(service);
    expect(second).toMatchObject({ fillBuckets: 1, snapshotBuckets: 1, seq: 4 });

    // the touched buckets equal a rebuild again; the untouched tampered ones were left alone
    expect(await diffWithRebuild(service)).toEqual({
      rollup_5m: { onlyLive: 1, onlyRebuilt: 1 },
      oi_snapshot_5m: { onlyLive: 1, onlyRebuilt: 1 },
    });
    const [r] = await service.db.querySql(`SELECT volume_usd::DOUBLE AS v, fill_count AS n FROM rollup_5m WHERE bucket = TIMESTAMP '2026-06-01 10:00:00'`);
    expect(r).toEqual({ v: 1500, n: 2 });
    const [f] = await service.db.querySql(`SELECT snapshots, rate_long_sum::DOUBLE AS s FROM funding_1h`);
    expect(f!.snapshots).toBe(11);
    expect(f!.s).toBeCloseTo(0.0001 * 55 + 0.0002, 12);

    // nothing new: nothing recomputed
    expect(await refreshRollups(service)).toMatchObject({ fillBuckets: 0, snapshotBuckets: 0 });
  });

  it('has nothing to recompute after a rebuild or a start on a deleted state (both built the rollups from the journal)', async () => {
    const { dir, cleanup: rm } = tempDataDir();
    let service: Service | undefined;
    cleanup = async () => {
      await service?.close();
      rm();
    };
    const open = async () => (service = await openService({ dataDir: dir, clock: () => at('2026-06-02T00:00:00Z') }));
    await open();
    await service!.append({
      fills: [fill({ time: at('2026-06-01T10:01:00Z'), position_key: 'A' }), fill({ time: at('2026-05-01T11:02:00Z'), position_key: 'C' })],
      marketSnapshots: snaps('2026-06-01T10:00:00Z', 10, 0.0001),
      positionSnapshots: [],
    });
    await service!.close();
    await rebuildState(dir);
    await open();
    expect(await refreshRollups(service!)).toMatchObject({ fillBuckets: 0, snapshotBuckets: 0, seq: 2 });
    // the watermark is the rebuilt one: a later append's buckets are the only ones recomputed
    await service!.append({ fills: [fill({ time: at('2026-06-01T10:02:00Z'), position_key: 'B' })], marketSnapshots: [], positionSnapshots: [] });
    expect(await refreshRollups(service!)).toMatchObject({ fillBuckets: 1, snapshotBuckets: 0, seq: 3 });
    expect(await diffWithRebuild(service!)).toEqual({});

    await service!.close();
    service = undefined;
    rmSync(statePath(dir));
    await open(); // the start-up catch-up folds the whole journal into a new state
    expect(await refreshRollups(service!)).toMatchObject({ fillBuckets: 0, snapshotBuckets: 0, seq: 3 });
    expect(await diffWithRebuild(service!)).toEqual({});
  });

  it('has nothing to recompute after a simulator backfill into an empty state, and all of it after a stopped one and the backfill that resumes it', async () => {
    const opts = { seed: 5, scale: 1 };
    const day = 86_400_000;
    const start = at('2025-03-12T00:00:00Z');
    const t = await tempService(start + 6 * day);
    cleanup = t.cleanup;
    const { service } = t;
    await backfillSimulator(service, opts, start + 3 * day);
    const first = service.lastSeq();
    expect(first).toBeGreaterThan(1000);
    expect(await refreshRollups(service)).toEqual({ fillBuckets: 0, snapshotBuckets: 0, seq: first, commit: expect.any(Number) });
    expect(await diffWithRebuild(service)).toEqual({});

    // a backfill resumed on a non-empty state marks nothing: the refresh recomputes what it appended
    await backfillSimulator(service, opts, start + 5 * day);
    const [touched] = await service.db.querySql(
      `SELECT count(*)::INTEGER AS n FROM (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time)
       FROM fills WHERE seq > ${first})`,
    );
    const resumed = await refreshRollups(service);
    expect(resumed).toMatchObject({ seq: service.lastSeq(), snapshotBuckets: 0 });
    expect(Number(touched!.n)).toBeGreaterThan(0);
    expect(resumed.fillBuckets).toBe(Number(touched!.n));
    expect(await diffWithRebuild(service)).toEqual({});

    // stopped during its backfill: not marked (else the refresh below would recompute only the resumed part)
    const other = await tempService(start + 6 * day);
    try {
      const abort = new AbortController();
      other.service.onAppend(() => abort.abort());
      await backfillSimulator(other.service, opts, start + 3 * day, abort.signal);
      // nor is the backfill that resumes it: it did not start from an empty state
      const stopped = other.service.lastSeq();
      await backfillSimulator(other.service, opts, start + 4 * day);
      expect(other.service.lastSeq()).toBeGreaterThan(stopped);
      const [all] = await other.service.db.querySql('SELECT count(*)::INTEGER AS n FROM rollup_5m');
      const refreshed = await refreshRollups(other.service);
      expect(refreshed.fillBuckets).toBeGreaterThan(0);
      expect(refreshed.fillBuckets).toBe(Number(all!.n));
    } finally {
      await other.cleanup();
    }
  }, 120_000);

  it('defers a refresh that runs during a backfill into an empty state, which marks the rollups itself', async () => {
    const opts = { seed: 5, scale: 1 };
    const start = at('2025-03-12T00:00:00Z');
    const t = await tempService(start + 3 * 86_400_000);
    cleanup = t.cleanup;
    const { service } = t;
    // a scheduled tick meeting the backfill: without the deferral it recomputed every bucket so far
    const during: Promise<Awaited<ReturnType<typeof refreshRollups>>>[] = [];
    const stop = service.onAppend(() => during.push(refreshRollups(service)));
    await backfillSimulator(service, opts, start + 2 * 86_400_000);
    stop();
    expect(during.length).toBeGreaterThan(0);
    for (const r of await Promise.all(during)) expect(r).toEqual({ fillBuckets: 0, snapshotBuckets: 0, seq: 0, commit: 0, deferred: true });
    // the deferral ended with the backfill, whose mark the next refresh starts from
    const after = await refreshRollups(service);
    expect(after).toEqual({ fillBuckets: 0, snapshotBuckets: 0, seq: service.lastSeq(), commit: expect.any(Number) });
    expect(await diffWithRebuild(service)).toEqual({});
  }, 60_000);
});
