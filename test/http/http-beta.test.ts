import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { marketSnapshotsOf } from '../../server/ingest/columns.ts';
import type { IncomingBatch, IncomingFill, MarketSnapshot } from '../../server/journal/rows.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Beta's endpoints over a simulated journal (4 days, market snapshots from day 3), reconciled with
 * recomputations from the raw rows the source produced (the batches appended): volume,
 * liquidation and open-interest history. Premium key: full history.
 */
const START = Date.UTC(2026, 3, 20);
const SNAPSHOTS_FROM = Date.UTC(2026, 3, 22);
const NOW = Date.UTC(2026, 3, 24, 6, 30);
const H = 3_600_000;
let t: TestApp;
let fills: IncomingFill[];
let snapshots: MarketSnapshot[];

beforeAll(async () => {
  const sim = new Simulator({ seed: 7, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  const batches: IncomingBatch[] = sim.advance(NOW);
  fills = batches.flatMap((b) => b.fills).filter((f) => f.protocol === 'beta');
  snapshots = batches.flatMap((b) => [...b.marketSnapshots, ...(b.marketSnapshotColumns ? marketSnapshotsOf(b.marketSnapshotColumns) : [])]).filter((s) => s.protocol === 'beta');
  t = await openTestApp({ now: NOW, batches });
}, 120_000);
afterAll(() => t?.close());

async function get(path: string, status = 200): Promise<any> {
  const res = await t.get(path, 'premium');
  const body = await res.json();
  expect(res.status, `${path} → ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  return body;
}

/** USD in exact micro-dollars (the wire rounds to 6 decimals). */
const micro = (usd: number): bigint => BigInt(Math.round(usd * 1e6));
const iso = (ms: number): string => new Date(ms).toISOString();

describe('beta: every alpha endpoint under the same paths', () => {
  it('answers each one with beta rows (market_variant null)', async () => {
    expect(fills.length).toBeGreaterThan(1000);
    const markets = (await get('/v1/beta/markets')).data.map((r: { market: string }) => r.market) as string[];
    expect(markets.length).toBeGreaterThan(1);
    const m = markets[0]!;
    const oi = (await get('/v1/beta/open-interest')).data;
    expect(oi.length).toBe(markets.length);
    for (const r of oi) expect(r.market_variant).toBeNull();
    const rates = (await get('/v1/beta/funding-rates')).data;
    for (const r of rates) {
      expect(r.market_variant).toBeNull();
      expect(r.funding_rate_long).toBeLessThanOrEqual(0);
      expect(r.funding_rate_short).toBeLessThanOrEqual(0);
    }
    const fh = await get(`/v1/beta/funding-rates/history?market=${m}&interval=1h`);
    expect(fh.data.length).toBeGreaterThan(10);
    for (const r of fh.data) expect(r.funding_rate_long).toBeLessThanOrEqual(0);
    const liq = await get('/v1/beta/liquidations/search?limit=5');
    expect(liq.data.length).toBe(5);
    for (const r of liq.data) expect(r).toMatchObject({ protocol: 'beta', market_variant: null });
    const stats = (await get('/v1/beta/accounts/stats')).data;
    expect(stats.total_accounts).toBeGreaterThan(10);
    const search = await get('/v1/beta/accounts/search?sort_by=volume&limit=3');
    expect(search.pagination.total).toBe(stats.total_accounts);
    const top = search.data[0];
    expect(top.funding_earned_usd).toBe(0);
    expect(top.market_variants_traded).toEqual([]);
    expect((await get(`/v1/beta/accounts/${top.address}`)).data).toEqual(top);
    const hist = await get(`/v1/beta/accounts/${top.address}/history?limit=500`);
    expect(hist.data.length).toBeGreaterThan(0);
    for (const r of hist.data) expect(r).toMatchObject({ protocol: 'beta', address: top.address, market_variant: null, funding_earned_usd: 0 });
    const open = await get('/v1/beta/open-positions/search?limit=5');
    expect(open.data.length).toBe(5);
    for (const r of open.data) expect(r).toMatchObject({ protocol: 'beta', market_variant: null });
    const summary = (await get('/v1/beta/open-positions/stats')).data;
    expect(summary.total_positions).toBe(open.pagination.total);
    const p = open.data[0];
    const detail = (await get(`/v1/beta/positions/${p.address}/${p.position_id}`)).data;
    expect(detail).toMatchObject({ protocol: 'beta', status: 'open', position_id: p.position_id, current_size_usd: p.current_size_usd });
    const timeline = await get(`/v1/beta/positions/${p.address}/${p.position_id}/lifecycle?include_collateral_events=true`);
    expect(timeline.pagination.total).toBe(detail.fill_count);
    const closed = hist.data[0];
    const events = await get(`/v1/beta/positions/${top.address}/${closed.position_id}/lifecycle?include_collateral_events=true`);
    expect(events.data.reduce((s: bigint, e: { size_delta_usd: number }) => s + micro(e.size_delta_usd), 0n)).toBe(0n);
  });

  it('keeps protocols apart: an alpha lifecycle is not found under beta, nor a beta one under alpha', async () => {
    const [alpha] = await t.service.db.querySql("SELECT address, position_id FROM lifecycles WHERE protocol = 'alpha' LIMIT 1");
    const [beta] = await t.service.db.querySql("SELECT address, position_id FROM lifecycles WHERE protocol = 'beta' LIMIT 1");
    expect((await get(`/v1/beta/positions/${alpha!.address}/${alpha!.position_id}`, 404)).error.code).toBe('not_found');
    await get(`/v1/alpha/positions/${beta!.address}/${beta!.position_id}`, 404);
    await get(`/v1/beta/positions/${alpha!.address}/${alpha!.position_id}/lifecycle`, 404);
  });

  it('names the parameter at fault (400) and unknown accounts (404)', async () => {
    expect((await get('/v1/beta/open-interest?market_variant=SOL%2FUSD%5BWSOL-USDC%5D', 400)).error.param).toBe('market_variant');
    expect((await get('/v1/beta/volume/history?market=NOPE-PERP', 400)).error.param).toBe('market');
    expect((await get('/v1/beta/funding-rates/history', 400)).error.param).toBe('market');
    expect((await get('/v1/beta/funding-rates/history?market_variant=x', 400)).error.code).toBe('unknown_parameter');
    expect((await get('/v1/beta/liquidations/search?market=NOPE-PERP')).data).toEqual([]); // as alpha's search
    expect((await get('/v1/beta/open-positions/search?sort_by=nope', 400)).error.param).toBe('sort_by');
    expect((await get('/v1/beta/accounts/search?search=ab', 400)).error.param).toBe('search');
    await get('/v1/beta/accounts/Zzzz1111111111111111111111111111111', 404);
    await get('/v1/beta/accounts/Zzzz1111111111111111111111111111111/history', 404);
    expect((await t.get('/v1/beta/volume/history', null)).status).toBe(401);
  });

  it('costs what alpha costs (1 current, 5 history or search)', async () => {
    const credits = async (path: string) => {
      const before = Number((await t.get('/v1/protocols', 'starter')).headers.get('x-credits-remaining'));
      await t.get(path, 'starter');
      const after = Number((await t.get('/v1/protocols', 'starter')).headers.get('x-credits-remaining'));
      return before - after - 1;
    };
    expect(await credits('/v1/beta/open-interest')).toBe(1);
    expect(await credits('/v1/beta/volume/history')).toBe(5);
    expect(await credits('/v1/beta/accounts/search')).toBe(5);
  });

  it('clamps history to the plan depth as alpha does', async () => {
    const trial = (await (await t.get('/v1/beta/volume/history?interval=1d&from=2026-01-01', 'trial')).json()) as { from: string };
    expect(trial.from).toBe(iso(NOW - 30 * 24 * H));
  });
});

describe('beta reconciliation with the raw journal', () => {
  const from = START;
  const to = Date.UTC(2026, 3, 24);
  const window = `interval=1h&from=${iso(from)}&to=${iso(to)}`;
  const bucketOf = (ms: number) => Math.floor(ms / H) * H;

  it('volume history equals Σ |size delta| (liquidations excluded) and Σ trading fees per bucket', async () => {
    const expected = new Map<number, { v: bigint; f: bigint }>();
    for (const f of fills) {
      if (f.time < from || f.time >= to) continue;
      const b = expected.get(bucketOf(f.time)) ?? { v: 0n, f: 0n };
      if (f.type !== 'liquidation') b.v += micro(Math.abs(f.size_delta_usd));
      b.f += micro(f.fee_usd);
      expected.set(bucketOf(f.time), b);
    }
    const rows = (await get(`/v1/beta/volume/history?${window}`)).data as { time: string; volume_usd: number; fees_usd: number }[];
    expect(rows.map((r) => r.time)).toEqual([...expected.keys()].sort((a, b) => a - b).map(iso));
    for (const r of rows) {
      const e = expected.get(Date.parse(r.time))!;
      expect(micro(r.volume_usd), r.time).toBe(e.v);
      expect(micro(r.fees_usd), r.time).toBe(e.f);
    }
  });

  it('liquidation history equals the liquidation fills per bucket, by side', async () => {
    const expected = new Map<number, { n: number; l: bigint; s: bigint; fee: bigint }>();
    for (const f of fills) {
      if (f.type !== 'liquidation' || f.time < from || f.time >= to) continue;
      const b = expected.get(bucketOf(f.time)) ?? { n: 0, l: 0n, s: 0n, fee: 0n };
      b.n += 1;
      if (f.side === 'long') b.l += micro(-f.size_delta_usd);
      else b.s += micro(-f.size_delta_usd);
      b.fee += micro(f.liquidation_fee_usd ?? 0);
      expected.set(bucketOf(f.time), b);
    }
    expect(expected.size).toBeGreaterThan(3);
    const rows = (await get(`/v1/beta/liquidations/history?${window}`)).data as any[];
    expect(rows.map((r) => r.time)).toEqual([...expected.keys()].sort((a, b) => a - b).map(iso));
    for (const r of rows) {
      const e = expected.get(Date.parse(r.time))!;
      expect(r.count).toBe(e.n);
      expect(micro(r.long_usd)).toBe(e.l);
      expect(micro(r.short_usd)).toBe(e.s);
      expect(micro(r.fees_usd)).toBe(e.fee);
    }
  });

  it('open-interest history equals the fill replay before the first snapshot and the latest snapshot after it', async () => {
    const markets = [...new Set(fills.map((f) => f.market))];
    const stateAt = (e: number): { l: bigint; s: bigint } => {
      let l = 0n;
      let s = 0n;
      for (const m of markets) {
        let snap: MarketSnapshot | undefined;
        for (const x of snapshots) if (x.market === m && x.time < e && (!snap || x.time >= snap.time)) snap = x;
        if (snap) {
          l += micro(snap.oi_long_usd);
          s += micro(snap.oi_short_usd);
          continue;
        }
        for (const f of fills) {
          if (f.market !== m || f.time >= e) continue;
          if (f.side === 'long') l += micro(f.size_delta_usd);
          else s += micro(f.size_delta_usd);
        }
      }
      return { l, s };
    };
    const rows = (await get(`/v1/beta/open-interest/history?interval=4h&from=${iso(from)}&to=${iso(to)}`)).data as any[];
    expect(rows.length).toBeGreaterThan(20);
    const times = rows.map((r) => Date.parse(r.time));
    expect(times.some((x) => x < SNAPSHOTS_FROM - 4 * H) && times.some((x) => x > SNAPSHOTS_FROM + 4 * H)).toBe(true);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBe(4 * H);
    for (const r of rows) {
      const e = stateAt(Date.parse(r.time) + 4 * H);
      // the replay sums rounded deltas: within a micro-dollar per fill is exact enough at 6 decimals
      expect(micro(r.long_usd), r.time).toBe(e.l);
      expect(micro(r.short_usd), r.time).toBe(e.s);
    }
  });
});
