/**
 * Plan clamps at their exact horizons (contract §3-4), for every sold plan, on liquidation search, the
 * liquidation, open-interest, volume and funding-rate history routes and account history. The clock is
 * pinned at NOW; for each horizon H in {7, 30, 90} days the journal holds a marker row exactly at the
 * floor (NOW − H days, inside: the window is `time >= floor`) and one 1 ms before it (outside), plus
 * one 200 days back that only a full-history plan sees. Expected answers are derived from the plan
 * table (server/keys/plans.ts) and the fixture list itself.
 *
 * Partial single-plan checks live in http-history.test.ts (trial vs premium `from` echo),
 * http-liquidations.test.ts (trial walk) and http-positions.test.ts (trial depth); this file
 * covers each plan at each exact edge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, fill, marketSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { getPlan, SOLD_PLANS, type PlanName } from '../../server/keys/plans.ts';
import type { IncomingFill, MarketSnapshot } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T12:00:00Z');
const H = 3_600_000;
const D = 24 * H;
const iso = (ms: number): string => new Date(ms).toISOString();
/** funding snapshots live on their own variant, so OI of the fills' variant is replayed from fills */
const V2 = 'SOL/USD[USDC-USDC]';
const TRADER = 'Trad1111111111111111111111111111111111111111';
const HISTORIAN = 'Hist1111111111111111111111111111111111111111';
/** horizons of the plan table, and a day only full history reaches */
const HORIZONS = [7, 30, 90];
const DEEP = 200;
const floorOf = (days: number | null): number | null => (days === null ? null : NOW - days * D);

/** Marker rows per horizon: see the file comment. */
function journal(): { fills: IncomingFill[]; marketSnapshots: MarketSnapshot[] } {
  const fills: IncomingFill[] = [];
  const snaps: MarketSnapshot[] = [];
  let n = 0;
  for (const days of [...HORIZONS, DEEP]) {
    const edge = NOW - days * D;
    for (const [where, t] of [
      ['in', edge],
      ['out', edge - 1],
    ] as const) {
      if (days === DEEP && where === 'out') continue;
      n += 1;
      const size = 100 * n;
      // a liquidation exactly at t (`GET /v1/alpha/liquidations/search` and
      // `GET /v1/alpha/liquidations/history`), opened 3 h earlier
      const liq = `liq-${where}-${days}`;
      fills.push(
        fill({ time: t - 3 * H, address: TRADER, position_key: liq, size_delta_usd: size, position_size_usd: size }),
        fill({
          time: t,
          address: TRADER,
          position_key: liq,
          type: 'liquidation',
          size_delta_usd: -size,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          liquidation_fee_usd: n,
          fee_total_usd: n + 0.5,
        }),
      );
      // a lifecycle opened exactly at t and closed two hours later
      // (`GET /v1/alpha/open-interest/history`, `GET /v1/alpha/volume/history` and
      // `GET /v1/alpha/accounts/{address}/history`)
      const life = `life-${where}-${days}`;
      fills.push(
        fill({ time: t, address: HISTORIAN, position_key: life, size_delta_usd: size + 7, position_size_usd: size + 7 }),
        fill({ time: t + 2 * H, address: HISTORIAN, position_key: life, type: 'close', size_delta_usd: -(size + 7), position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0 }),
      );
      // a funding snapshot exactly at t (`GET /v1/alpha/funding-rates/history`)
      snaps.push(marketSnapshot({ time: t, market_variant: V2, funding_rate_long: n / 10_000, funding_rate_short: -n / 10_000 }));
    }
  }
  return { fills, marketSnapshots: snaps };
}

const J = journal();
let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [{ ...J, positionSnapshots: [] }] });
});
afterAll(async () => {
  await t?.close();
});

async function get(path: string, plan: PlanName): Promise<{ status: number; body: any }> {
  const res = await t.get(path, plan);
  return { status: res.status, body: await res.json() };
}

const since =
  (floor: number | null) =>
  (time: number): boolean =>
    floor === null || time >= floor;
const FAR = iso(NOW - 300 * D);

describe.each(SOLD_PLANS.map((p) => [p] as const))('plan %s', (plan) => {
  const p = getPlan(plan);
  const liqFloor = floorOf(p.liquidationLookbackDays);
  const histFloor = floorOf(p.historyDays);
  const fundFloor = floorOf(p.fundingHistoryDays) as number;
  const liquidations = J.fills.filter((f) => f.type === 'liquidation').sort((a, b) => b.time - a.time);
  const seenLiq = liquidations.filter((f) => since(liqFloor)(f.time));

  it('5 liquidations/search: the walk stops exactly at the lookback floor', async () => {
    const all = await get(`/v1/alpha/liquidations/search?from=${FAR}`, plan);
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: any) => r.time)).toEqual(seenLiq.map((f) => iso(f.time)));
    expect(all.body.next_cursor).toBeNull();
    // a page that ends on the last row inside the floor is the last page (the floor ends the walk) …
    const exact = await get(`/v1/alpha/liquidations/search?limit=${seenLiq.length}`, plan);
    expect(exact.body.data).toHaveLength(seenLiq.length);
    expect(exact.body.next_cursor).toBeNull();
    // … one row shorter still has a next page
    if (seenLiq.length > 1) {
      const shorter = await get(`/v1/alpha/liquidations/search?limit=${seenLiq.length - 1}`, plan);
      expect(shorter.body.next_cursor).toEqual(expect.any(String));
    }
  });

  it('6 liquidations/history: from clamped to the lookback floor; the row at the floor counts, 1 ms before does not', async () => {
    const { status, body } = await get(`/v1/alpha/liquidations/history?interval=1h&from=${iso(NOW - 250 * D)}`, plan);
    expect(status).toBe(200);
    expect(body.from).toBe(iso(liqFloor ?? NOW - 250 * D));
    const count = body.data.reduce((s: number, b: any) => s + b.count, 0);
    expect(count).toBe(seenLiq.length);
    const fees = body.data.reduce((s: number, b: any) => s + b.fees_usd, 0);
    expect(fees).toBeCloseTo(
      seenLiq.reduce((s, f) => s + (f.liquidation_fee_usd ?? 0), 0),
      6,
    );
    if (liqFloor !== null) await expectEdge400('/v1/alpha/liquidations/history?interval=1h', liqFloor, plan);
  });

  it('8 open-interest/history: the first bucket starts exactly at the history floor', async () => {
    const { status, body } = await get(`/v1/alpha/open-interest/history?interval=1h&from=${iso(NOW - 250 * D)}`, plan);
    expect(status).toBe(200);
    // full history: from the first bucket with a position (the deep liquidation, opened 3 h before it)
    const first = histFloor ?? NOW - DEEP * D - 3 * H;
    expect(body.from).toBe(iso(histFloor ?? NOW - 250 * D));
    expect(body.data[0].time).toBe(iso(first));
    // the first bucket's OI is the state at its end: the lifecycle opened exactly at the floor included
    expect(body.data[0]).toMatchObject({ long_usd: longOiAt(first + H), short_usd: 0 });
    if (histFloor !== null) await expectEdge400('/v1/alpha/open-interest/history?interval=1h', histFloor, plan);
    expect(body.data).toHaveLength((NOW - Date.parse(body.data[0].time)) / H);
  });

  it('9 volume/history: the fill at the history floor counts, the one 1 ms before does not', async () => {
    const { status, body } = await get(`/v1/alpha/volume/history?interval=1d&from=${iso(NOW - 250 * D)}`, plan);
    expect(status).toBe(200);
    expect(body.from).toBe(iso(histFloor ?? NOW - 250 * D));
    const expected = J.fills.filter((f) => f.type !== 'liquidation' && since(histFloor)(f.time)).reduce((s, f) => s + Math.abs(f.size_delta_usd), 0);
    const volume = body.data.reduce((s: number, b: any) => s + b.volume_usd, 0);
    expect(volume).toBeCloseTo(expected, 6);
    if (histFloor !== null) await expectEdge400('/v1/alpha/volume/history?interval=1h', histFloor, plan);
  });

  it('11 funding-rates/history: 30 days on every plan; the snapshot at the floor is the first bucket', async () => {
    const q = `/v1/alpha/funding-rates/history?market_variant=${encodeURIComponent(V2)}&interval=1h`;
    const { status, body } = await get(`${q}&from=${iso(NOW - 100 * D)}`, plan);
    expect(status).toBe(200);
    expect(body.from).toBe(iso(fundFloor));
    const seen = J.marketSnapshots.filter((s) => s.time >= fundFloor).sort((a, b) => a.time - b.time);
    expect(body.data.map((b: any) => [b.time, b.funding_rate_long])).toEqual(seen.map((s) => [iso(Math.floor(s.time / H) * H), s.funding_rate_long]));
    await expectEdge400(q, fundFloor, plan);
  });

  it('15 accounts/:address/history: a lifecycle opened at the history floor is listed, 1 ms before is omitted', async () => {
    const { status, body } = await get(`/v1/alpha/accounts/${HISTORIAN}/history?sort_by=opened_at&order=desc`, plan);
    expect(status).toBe(200);
    const opened = J.fills
      .filter((f) => f.address === HISTORIAN && f.type === 'open')
      .map((f) => f.time)
      .filter(since(histFloor));
    expect(body.data.map((r: any) => r.opened_at)).toEqual(opened.sort((a, b) => b - a).map(iso));
    expect(body.pagination.total).toBe(opened.length);
  });
});

/** Long OI at `time` replayed from the fixture: the size after each position's last fill before it. */
function longOiAt(time: number): number {
  const last = new Map<string, number>();
  for (const f of [...J.fills].sort((a, b) => a.time - b.time)) if (f.time < time) last.set(f.position_key, f.position_size_usd);
  return [...last.values()].reduce((s, x) => s + x, 0);
}

/** At the exact floor: `to` = floor is a 400 on `to`; `to` = floor + 1 ms is answered, from = floor. */
async function expectEdge400(path: string, floor: number, plan: PlanName): Promise<void> {
  const at = await get(`${path}&from=${iso(floor - D)}&to=${iso(floor)}`, plan);
  expect(at.status).toBe(400);
  expect(at.body.error).toMatchObject({ code: 'invalid_parameter', param: 'to' });
  const after = await get(`${path}&from=${iso(floor - D)}&to=${iso(floor + 1)}`, plan);
  expect(after.status).toBe(200);
  expect(after.body.from).toBe(iso(floor));
  expect(after.body.to).toBe(iso(floor + 1));
}
