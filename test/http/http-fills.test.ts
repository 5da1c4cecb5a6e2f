import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import type { IncomingBatch, IncomingFill } from '../../server/journal/rows.ts';
import { at, fill } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';

/**
 * GET /v1/{protocol}/fills over a simulated journal (3 days): pages walk a wallet's fills with no
 * gap or repeat, each row is the stream's data frame, every filter holds; and on a hand-built
 * journal the plan's history depth ends the walk.
 */
const START = Date.UTC(2026, 3, 20);
const NOW = Date.UTC(2026, 3, 23, 3, 17);
let t: TestApp;
let raw: IncomingFill[];

beforeAll(async () => {
  const sim = new Simulator({ seed: 11, start: START, snapshotsFrom: Date.UTC(2026, 3, 22) });
  const batches: IncomingBatch[] = sim.advance(NOW);
  raw = batches.flatMap((b) => b.fills);
  t = await openTestApp({ now: NOW, batches });
}, 120_000);
afterAll(() => t?.close());

async function get(path: string, status = 200, plan: 'premium' | 'trial' = 'premium'): Promise<any> {
  const res = await t.get(path, plan);
  const body = await res.json();
  expect(res.status, `${path} → ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  return body;
}

/** Every row of a walk from `first` (a path with a query), following next_cursor. */
async function walk(first: string): Promise<{ rows: any[]; pages: number }> {
  const rows: any[] = [];
  let pages = 0;
  let path = first;
  for (;;) {
    const body = await get(path);
    rows.push(...body.data);
    pages += 1;
    if (body.next_cursor === null) return { rows, pages };
    path = `${first.split('?')[0]}?cursor=${body.next_cursor}&limit=${new URL(`http://x${first}`).searchParams.get('limit')}`;
  }
}

describe('GET /v1/{protocol}/fills', () => {
  for (const protocol of ['alpha', 'beta'] as const) {
    it(`${protocol}: pages walk a wallet's fills, newest first, with no gap or repeat`, async () => {
      // the wallet with the most fills of the protocol
      const counts = new Map<string, number>();
      for (const f of raw) if (f.protocol === protocol) counts.set(f.address, (counts.get(f.address) ?? 0) + 1);
      const [wallet, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      expect(n).toBeGreaterThan(40);
      const { rows, pages } = await walk(`/v1/${protocol}/fills?address=${wallet}&limit=17`);
      expect(pages).toBe(Math.ceil(n / 17));
      // journal order breaks ties in time: the raw rows' order, newest first
      const expected = raw
        .map((f, i) => ({ f, i }))
        .filter(({ f }) => f.protocol === protocol && f.address === wallet)
        .sort((a, b) => b.f.time - a.f.time || b.i - a.i)
        .map(({ f }) => f);
      expect(rows.map((r) => r.tx + ':' + r.type + ':' + r.size_delta_usd)).toEqual(expected.map((f) => f.tx + ':' + f.type + ':' + Math.round(f.size_delta_usd * 1e6) / 1e6));
      expect(new Set(rows.map((r) => r.seq)).size).toBe(rows.length);
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1], rows[i]];
        expect(a.time > b.time || (a.time === b.time && a.seq > b.seq)).toBe(true);
      }
    });
  }

  it("each row is the stream's data frame for that fill", async () => {
    const page = await get('/v1/beta/fills?limit=50');
    expect(page.data.length).toBe(50);
    const seqs = page.data.map((r: { seq: number }) => r.seq);
    const frames = await t.service.db.query('stream/fills', {
      after: Math.min(...seqs) - 1,
      until: Math.max(...seqs),
      protocol: 'beta',
      market: null,
      address: null,
      since_ms: null,
      limit: 100_000,
    });
    const bySeq = new Map(frames.map((f) => [f.seq, f]));
    for (const r of page.data) expect(r).toEqual(bySeq.get(r.seq));
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it('filters by market, variant (alpha), type, side, size and window', async () => {
    const from = '2026-04-21T00:00:00Z';
    const to = '2026-04-21T06:00:00Z';
    const q = `market=sol-perp&type=decrease&side=short&min_size_usd=500&from=${from}&to=${to}&limit=500`;
    const { rows } = await walk(`/v1/alpha/fills?${q}`);
    const expected = raw.filter(
      (f) => f.protocol === 'alpha' && f.market === 'SOL-PERP' && f.type === 'decrease' && f.side === 'short' && Math.abs(f.size_delta_usd) >= 500 && f.time >= at(from) && f.time < at(to),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.tx).sort()).toEqual(expected.map((f) => f.tx).sort());
    const variant = raw.find((f) => f.protocol === 'alpha')!.market_variant!;
    const byVariant = await get(`/v1/alpha/fills?market_variant=${encodeURIComponent(variant)}&limit=100`);
    expect(byVariant.data.length).toBeGreaterThan(0);
    for (const r of byVariant.data) expect(r.market_variant).toBe(variant);
    const liqs = await get('/v1/beta/fills?type=liquidation&limit=100');
    for (const r of liqs.data) expect(r).toMatchObject({ type: 'liquidation', protocol: 'beta', market_variant: null });
  });

  it('rejects bad input with the parameter named', async () => {
    expect((await get('/v1/beta/fills?market_variant=SOL%2FUSD%5BWSOL-USDC%5D', 400)).error.param).toBe('market_variant');
    expect((await get('/v1/alpha/fills?market=NOPE-PERP', 400)).error.param).toBe('market');
    expect((await get('/v1/alpha/fills?type=flip', 400)).error.param).toBe('type');
    expect((await get('/v1/alpha/fills?side=up', 400)).error.param).toBe('side');
    expect((await get('/v1/alpha/fills?min_size_usd=-1', 400)).error.param).toBe('min_size_usd');
    expect((await get('/v1/alpha/fills?address=0xabc', 400)).error.param).toBe('address');
    expect((await get('/v1/alpha/fills?from=1776000000', 400)).error.message).toMatch(/RFC 3339/);
    expect((await get('/v1/alpha/fills?from=2026-04-22&to=2026-04-21', 400)).error.param).toBe('from');
    expect((await get('/v1/alpha/fills?cursor=abc', 400)).error.param).toBe('cursor');
    const first = await get('/v1/alpha/fills?side=long&limit=2');
    expect((await get(`/v1/alpha/fills?side=short&cursor=${first.next_cursor}`, 400)).error.param).toBe('cursor');
    expect((await get(`/v1/alpha/fills?side=long&cursor=${first.next_cursor}&limit=2`)).data.length).toBe(2);
    expect((await get('/v1/alpha/fills?sort=asc', 400)).error.code).toBe('unknown_parameter');
    expect((await t.get('/v1/alpha/fills', null)).status).toBe(401);
    // a wallet without fills: an empty page
    expect((await get('/v1/alpha/fills?address=Zzzz1111111111111111111111111111111')).data).toEqual([]);
  });
});

describe('GET /v1/{protocol}/fills: plan history depth', () => {
  const NOW2 = at('2026-06-02T00:00:00Z');
  const D = 86_400_000;
  let u: TestApp;
  beforeAll(async () => {
    u = await openTestApp({
      now: NOW2,
      batches: [
        {
          fills: [40, 20, 1].map((days, i) => fill({ protocol: 'beta', market_variant: null, position_key: `P${i}`, time: NOW2 - days * D })),
          marketSnapshots: [],
          positionSnapshots: [],
        },
      ],
    });
  });
  afterAll(() => u?.close());

  it('a trial walk ends at 30 days with next_cursor null; premium reaches every fill', async () => {
    const trial = (await (await u.get('/v1/beta/fills?limit=1', 'trial')).json()) as any;
    const second = (await (await u.get(`/v1/beta/fills?limit=1&cursor=${trial.next_cursor}`, 'trial')).json()) as any;
    expect(second.data.length).toBe(1);
    expect(second.next_cursor).toBeNull();
    const premium = (await (await u.get('/v1/beta/fills', 'premium')).json()) as any;
    expect(premium.data.length).toBe(3);
    expect(premium.data.map((r: { time: string }) => r.time)).toEqual([1, 20, 40].map((d) => new Date(NOW2 - d * D).toISOString()));
  });

  it('costs 5 credits', async () => {
    const before = Number((await u.get('/v1/protocols', 'starter')).headers.get('x-credits-remaining'));
    await u.get('/v1/beta/fills', 'starter');
    const after = Number((await u.get('/v1/protocols', 'starter')).headers.get('x-credits-remaining'));
    expect(before - after).toBe(6);
  });
});
