import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { rng } from '../../../server/bench/workloads.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';

/**
 * The `activity_24h(now)` macro (sql/schema/read-macros.sql; `GET /v1/protocols/stats`,
 * `GET /v1/alpha/markets/stats` and `GET /v1/beta/markets/stats`) sums the window's whole 5-minute
 * buckets from rollup_5m and only its edges and liquidations from the fills. It must equal its
 * definition, the sums over every fill of [now − 24 h, now), exactly: compared here for windows ending
 * anywhere (on a bucket boundary, 1 ms off one, inside a bucket, before the first fill, past the last),
 * every group's decimals as text.
 */
const START = Date.UTC(2026, 3, 20);
const NOW = Date.UTC(2026, 3, 26, 9, 17, 23);
let t: TestApp;

beforeAll(async () => {
  const sim = new Simulator({ seed: 21, start: START, snapshotsFrom: NOW });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
}, 60_000);
afterAll(() => t?.close());

const DEFINITION = `SELECT protocol, market, market_variant,
    coalesce(sum(abs(size_delta_usd)) FILTER (WHERE type <> 'liquidation'), 0) AS volume_usd,
    coalesce(sum(fee_usd), 0) AS fees_usd,
    coalesce(sum(abs(size_delta_usd)) FILTER (WHERE type = 'liquidation'), 0) AS liquidations_usd
  FROM fills WHERE time >= epoch_ms($now::BIGINT - 86400000) AND time < epoch_ms($now::BIGINT) GROUP BY ALL`;

const asText = (source: string) => `SELECT protocol, market, market_variant, volume_usd::VARCHAR AS v, fees_usd::VARCHAR AS f,
  liquidations_usd::VARCHAR AS l FROM (${source}) ORDER BY ALL`;

describe('activity_24h', () => {
  it('equals the sums over every fill of the window, wherever the window ends', async () => {
    const random = rng(5);
    const M5 = 300_000;
    const ends = [
      NOW,
      START,
      START + 1,
      START + 86_400_000,
      NOW + 86_400_000,
      NOW + 3 * 86_400_000,
      Math.floor(NOW / M5) * M5,
      Math.floor(NOW / M5) * M5 + 1,
      Math.floor(NOW / M5) * M5 - 1,
      ...Array.from({ length: 40 }, () => START + Math.floor(random() * (NOW - START + 86_400_000))),
      ...Array.from({ length: 10 }, () => START + Math.floor(random() * ((NOW - START) / M5)) * M5),
    ];
    let groups = 0;
    for (const now of ends) {
      const [got, want] = await t.service.db.write(async (w) => [await w.rows(asText('SELECT * FROM activity_24h($now::BIGINT)'), { now }), await w.rows(asText(DEFINITION), { now })]);
      expect(got, new Date(now).toISOString()).toEqual(want);
      groups += want.length;
    }
    // not vacuous: most windows hold fills of many markets of both protocols, liquidations among them
    expect(groups).toBeGreaterThan(500);
    const [liquidated] = await t.service.db.write((w) => w.rows(`SELECT count(*) AS n FROM activity_24h($now::BIGINT) WHERE liquidations_usd > 0`, { now: NOW }));
    expect(liquidated!.n as number).toBeGreaterThan(0);
  }, 60_000);
});
