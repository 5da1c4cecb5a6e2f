import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { at, fill, marketSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { mountRoute } from '../../server/http/mount-route.ts';
import { defineRoute } from '../../server/http/routes/define.ts';
import { marketParam, noQuery, offsetParam, querySchema } from '../../server/http/params.ts';
import { keyIdOf } from '../../server/keys/format.ts';
import { log } from '../../server/lib/log.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';
const C = 'AddrC111111111111111111111111111111111111111';

/**
 * The known-answer journal (clock pinned at NOW; 24 h window = [NOW − 24 h, NOW)):
 * alpha SOL/USD[WSOL-USDC]: open 1,000 (30 h ago, outside), +500, −300 → vol 800, fees 0.8
 * alpha SOL/USD[USDC-USDC]: open 400.123456 → vol 400.123456, fees 0.4; +100 exactly at NOW (outside)
 * alpha BTC/USD[USDC-USDC]: short open 2,000, liquidated → vol 2,000, fees 3.5, liquidations 2,000
 * alpha ETH/USD[USDC-USDC]: open 700 exactly 24 h ago (inside) → vol 700, fees 0.7
 * alpha XAU/USD[USDC-USDC]: open 250, 40 h ago; fills only, no snapshot
 * beta SOL-PERP: open 5,000 → vol 5,000, fees 3; beta BTC-PERP: fills only, 50 h ago
 */
function journal(): IncomingBatch {
  const fills = [
    fill({
      time: NOW - 50 * H,
      protocol: 'beta',
      position_key: 'G',
      address: C,
      market: 'BTC-PERP',
      market_variant: null,
      side: 'short',
      size_delta_usd: 1000,
      position_size_usd: 1000,
      fee_usd: 0.6,
      fee_total_usd: 0.6,
    }),
    fill({
      time: NOW - 40 * H,
      position_key: 'D',
      address: C,
      market: 'XAU-PERP',
      market_variant: 'XAU/USD[USDC-USDC]',
      size_delta_usd: 250,
      position_size_usd: 250,
      fee_usd: 0.25,
      fee_total_usd: 0.25,
    }),
    fill({ time: NOW - 30 * H, position_key: 'A', address: A, fee_usd: 1, fee_total_usd: 1 }),
    fill({
      time: NOW - 24 * H,
      position_key: 'E',
      address: B,
      market: 'ETH-PERP',
      market_variant: 'ETH/USD[USDC-USDC]',
      size_delta_usd: 700,
      position_size_usd: 700,
      fee_usd: 0.7,
      fee_total_usd: 0.7,
    }),
    fill({
      time: NOW - 3 * H,
      position_key: 'B',
      address: B,
      market: 'BTC-PERP',
      market_variant: 'BTC/USD[USDC-USDC]',
      side: 'short',
      size_delta_usd: 2000,
      position_size_usd: 2000,
      collateral_delta_usd: 200,
      position_collateral_usd: 200,
      price: 65000,
      entry_price: 65000,
      fee_usd: 2,
      fee_total_usd: 2,
    }),
    fill({
      time: NOW - 2 * H,
      position_key: 'A',
      address: A,
      type: 'increase',
      size_delta_usd: 500,
      position_size_usd: 1500,
      collateral_delta_usd: 0,
      position_collateral_usd: 100,
      price: 110,
      entry_price: 103.333333,
      fee_usd: 0.5,
      fee_total_usd: 0.5,
    }),
    fill({
      time: NOW - 1 * H,
      protocol: 'beta',
      position_key: 'F',
      address: A,
      market: 'SOL-PERP',
      market_variant: null,
      size_delta_usd: 5000,
      position_size_usd: 5000,
      collateral_delta_usd: 1000,
      position_collateral_usd: 1000,
      fee_usd: 3,
      fee_total_usd: 3,
    }),
    fill({
      time: NOW - 1 * H,
      position_key: 'A',
      address: A,
      type: 'decrease',
      size_delta_usd: -300,
      position_size_usd: 1200,
      collateral_delta_usd: 0,
      position_collateral_usd: 100,
      price: 120,
      entry_price: 103.333333,
      pnl_delta_usd: 48.387097,
      fee_usd: 0.3,
      fee_total_usd: 0.3,
    }),
    fill({
      time: NOW - H / 2,
      position_key: 'B',
      address: B,
      market: 'BTC-PERP',
      market_variant: 'BTC/USD[USDC-USDC]',
      side: 'short',
      type: 'liquidation',
      size_delta_usd: -2000,
      position_size_usd: 0,
      collateral_delta_usd: -200,
      position_collateral_usd: 0,
      price: 71000,
      entry_price: 65000,
      pnl_delta_usd: -184.615385,
      fee_usd: 1.5,
      liquidation_fee_usd: 10,
      fee_total_usd: 11.5,
    }),
    fill({ time: NOW - H / 6, position_key: 'C', address: C, market_variant: 'SOL/USD[USDC-USDC]', size_delta_usd: 400.123456, position_size_usd: 400.123456, fee_usd: 0.4, fee_total_usd: 0.4 }),
    fill({
      time: NOW,
      position_key: 'C',
      address: C,
      market_variant: 'SOL/USD[USDC-USDC]',
      type: 'increase',
      size_delta_usd: 100,
      position_size_usd: 500.123456,
      collateral_delta_usd: 0,
      fee_usd: 0.1,
      fee_total_usd: 0.1,
    }),
  ];
  const snap = (over: Parameters<typeof marketSnapshot>[0]) => marketSnapshot({ time: NOW - 5 * 60_000, ...over });
  const marketSnapshots = [
    snap({ time: NOW - 65 * 60_000, index_price: 99, oi_long_usd: 1, oi_short_usd: 1, funding_rate_long: 0.5, funding_rate_short: 0.5 }),
    snap({ index_price: 118.5, oi_long_usd: 1200, oi_short_usd: 300.5, funding_rate_long: 0.0000123, funding_rate_short: -0.0000456 }),
    snap({ market_variant: 'SOL/USD[USDC-USDC]', index_price: 118.5, oi_long_usd: 400.123456, funding_rate_long: 0.00001, funding_rate_short: -0.00002 }),
    snap({ market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', index_price: 65000.25, oi_long_usd: 5000, funding_rate_long: -0.00003, funding_rate_short: 0.00001 }),
    snap({ market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]', index_price: 3000, oi_long_usd: 700, oi_short_usd: 250.25, funding_rate_long: 0.000002, funding_rate_short: -0.000003 }),
    snap({ protocol: 'beta', market: 'SOL-PERP', market_variant: null, index_price: 118.4, oi_long_usd: 10000, oi_short_usd: 5000, funding_rate_long: -0.00001, funding_rate_short: -0.00002 }),
    snap({ protocol: 'beta', market: 'ETH-PERP', market_variant: null, index_price: 2999.5, oi_long_usd: 3000, oi_short_usd: 1000, funding_rate_long: -0.000015, funding_rate_short: -0.000025 }),
  ];
  return { fills, marketSnapshots, positionSnapshots: [] };
}

let t: TestApp;
beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
});
afterAll(async () => {
  await t?.close();
});

async function json(path: string, plan: Parameters<TestApp['get']>[1] = 'trial', init?: RequestInit) {
  const res = await t.get(path, plan, init);
  return { res, status: res.status, body: (await res.json()) as any };
}

/** An error body is exactly `{ error: { code, message, param? } }`: nothing of h3's own body. */
function expectOurError(body: any, status: number, code: string) {
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  for (const k of Object.keys(body.error)) expect(['code', 'message', 'param']).toContain(k);
  expect(status).toBeGreaterThanOrEqual(400);
}

describe('endpoints 1-4, 20, 21 on a known journal', () => {
  it('1: GET /v1/protocols lists alpha and beta', async () => {
    const { status, body } = await json('/v1/protocols');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { id: 'alpha', name: 'GMX-Solana', chain: 'solana' },
        { id: 'beta', name: 'Jupiter Perps', chain: 'solana' },
      ],
    });
  });

  it('2: GET /v1/protocols/stats aggregates OI, trailing-24h activity and active markets', async () => {
    const { status, body } = await json('/v1/protocols/stats');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { protocol: 'alpha', open_interest_usd: 7850.873456, volume_24h_usd: 3900.123456, fees_24h_usd: 5.4, liquidations_24h_usd: 2000, markets: 3 },
        { protocol: 'beta', open_interest_usd: 19000, volume_24h_usd: 5000, fees_24h_usd: 3, liquidations_24h_usd: 0, markets: 2 },
      ],
    });
  });

  it('3: GET /v1/alpha/markets lists variants (snapshot or fills) and grouped symbols', async () => {
    const { status, body } = await json('/v1/alpha/markets');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]' },
        { market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]' },
        { market: 'SOL-PERP', market_variant: 'SOL/USD[USDC-USDC]' },
        { market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' },
        { market: 'XAU-PERP', market_variant: 'XAU/USD[USDC-USDC]' },
      ],
      markets: ['BTC-PERP', 'ETH-PERP', 'SOL-PERP', 'XAU-PERP'],
    });
  });

  it('4: GET /v1/alpha/markets/stats gives one Market row per active variant', async () => {
    const { status, body } = await json('/v1/alpha/markets/stats');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          market_variant: 'BTC/USD[USDC-USDC]',
          market: 'BTC-PERP',
          index_price: 65000.25,
          open_interest_long_usd: 5000,
          open_interest_short_usd: 0,
          funding_rate_long: -0.00003,
          funding_rate_short: 0.00001,
          volume_24h_usd: 2000,
          fees_24h_usd: 3.5,
          liquidations_24h_usd: 2000,
        },
        {
          market_variant: 'ETH/USD[USDC-USDC]',
          market: 'ETH-PERP',
          index_price: 3000,
          open_interest_long_usd: 700,
          open_interest_short_usd: 250.25,
          funding_rate_long: 0.000002,
          funding_rate_short: -0.000003,
          volume_24h_usd: 700,
          fees_24h_usd: 0.7,
          liquidations_24h_usd: 0,
        },
        {
          market_variant: 'SOL/USD[USDC-USDC]',
          market: 'SOL-PERP',
          index_price: 118.5,
          open_interest_long_usd: 400.123456,
          open_interest_short_usd: 0,
          funding_rate_long: 0.00001,
          funding_rate_short: -0.00002,
          volume_24h_usd: 400.123456,
          fees_24h_usd: 0.4,
          liquidations_24h_usd: 0,
        },
        {
          market_variant: 'SOL/USD[WSOL-USDC]',
          market: 'SOL-PERP',
          index_price: 118.5,
          open_interest_long_usd: 1200,
          open_interest_short_usd: 300.5,
          funding_rate_long: 0.0000123,
          funding_rate_short: -0.0000456,
          volume_24h_usd: 800,
          fees_24h_usd: 0.8,
          liquidations_24h_usd: 0,
        },
      ],
    });
  });

  it('20: GET /v1/beta/markets lists markets with a null variant', async () => {
    const { status, body } = await json('/v1/beta/markets');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        { market: 'BTC-PERP', market_variant: null },
        { market: 'ETH-PERP', market_variant: null },
        { market: 'SOL-PERP', market_variant: null },
      ],
    });
  });

  it('21: GET /v1/beta/markets/stats gives one row per active market', async () => {
    const { status, body } = await json('/v1/beta/markets/stats');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          market_variant: null,
          market: 'ETH-PERP',
          index_price: 2999.5,
          open_interest_long_usd: 3000,
          open_interest_short_usd: 1000,
          funding_rate_long: -0.000015,
          funding_rate_short: -0.000025,
          volume_24h_usd: 0,
          fees_24h_usd: 0,
          liquidations_24h_usd: 0,
        },
        {
          market_variant: null,
          market: 'SOL-PERP',
          index_price: 118.4,
          open_interest_long_usd: 10000,
          open_interest_short_usd: 5000,
          funding_rate_long: -0.00001,
          funding_rate_short: -0.00002,
          volume_24h_usd: 5000,
          fees_24h_usd: 3,
          liquidations_24h_usd: 0,
        },
      ],
    });
  });
});

describe('authentication', () => {
  const PATHS = ['/v1/protocols', '/v1/protocols/stats', '/v1/alpha/markets', '/v1/alpha/markets/stats', '/v1/beta/markets', '/v1/beta/markets/stats'];

  it('is required on every endpoint, with one 401 body for missing, unknown, malformed and revoked keys', async () => {
    const revoked = t.keys.create({ plan: 'premium' }).key;
    t.keys.revoke(keyIdOf(revoked)!);
    const good = t.key('premium');
    const unknown = `pa_zzzzzzzz_${good.slice(-32)}`;
    const wrongSecret = `${good.slice(0, 12)}${'A'.repeat(32)}`;
    const bodies = new Set<string>();
    for (const path of PATHS) {
      const attempts: Record<string, string>[] = [{}, { 'x-api-key': unknown }, { 'x-api-key': wrongSecret }, { 'x-api-key': 'nonsense' }, { 'x-api-key': revoked }];
      for (const headers of attempts) {
        const res = await t.app.request(path, { headers });
        expect(res.status).toBe(401);
        const text = await res.text();
        expectOurError(JSON.parse(text), res.status, 'unauthorized');
        bodies.add(text);
      }
    }
    expect(bodies.size).toBe(1);
  });

  it('revocation takes effect at once', async () => {
    const { key, record } = t.keys.create({ plan: 'starter' });
    expect((await t.app.request('/v1/protocols', { headers: { 'x-api-key': key } })).status).toBe(200);
    t.keys.revoke(record.id);
    expect((await t.app.request('/v1/protocols', { headers: { 'x-api-key': key } })).status).toBe(401);
  });

  it('ignores a key in the query string (401) and never echoes it', async () => {
    const key = t.key('trial');
    for (const name of ['x-api-key', 'api_key']) {
      const res = await t.app.request(`/v1/protocols?${name}=${key}`);
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).not.toContain(key);
      expectOurError(JSON.parse(text), 401, 'unauthorized');
    }
    // with a valid header, a key-looking query parameter is still unknown (400), not echoed
    const { status, body, res } = await json(`/v1/protocols?api_key=${key}`);
    expect(status).toBe(400);
    expectOurError(body, status, 'unknown_parameter');
    expect(body.error.param).toBe('api_key');
    expect(JSON.stringify(body)).not.toContain(key);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('accepts a valid key with surrounding whitespace', async () => {
    const res = await t.app.request('/v1/protocols', { headers: { 'x-api-key': ` ${t.key('pro')} ` } });
    expect(res.status).toBe(200);
  });
});

describe('errors and headers', () => {
  it('404 not_found for an unknown route, before auth', async () => {
    for (const plan of ['trial', null] as const) {
      const { status, body } = await json('/v1/nope?x=1', plan);
      expect(status).toBe(404);
      expectOurError(body, status, 'not_found');
      expect(body.error.message).not.toContain('x=1');
    }
  });

  it('405 method_not_allowed with Allow: GET, HEAD on anything but GET and HEAD, before auth', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      for (const plan of ['trial', null] as const) {
        const { res, status, body } = await json('/v1/protocols', plan, { method });
        expect(status).toBe(405);
        expectOurError(body, status, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('GET, HEAD');
      }
    }
  });

  it('400 unknown_parameter names the parameter', async () => {
    const { status, body } = await json('/v1/protocols?foo=1');
    expect(status).toBe(400);
    expectOurError(body, status, 'unknown_parameter');
    expect(body.error.param).toBe('foo');
    const stats = await json('/v1/alpha/markets/stats?market=SOL-PERP');
    expect(stats.status).toBe(400);
    expect(stats.body.error).toMatchObject({ code: 'unknown_parameter', param: 'market' });
  });

  it('400 for a malformed URL path, in our body', async () => {
    const { status, body } = await json('/%ZZ', null);
    expect(status).toBe(400);
    expectOurError(body, status, 'bad_request');
  });

  it('500 internal_error without stack or SQL; logged with the request id', async () => {
    const spy = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    try {
      mountRoute(
        t.app,
        defineRoute({
          path: '/v1/test-boom',
          cost: 1,
          summary: 'test',
          query: noQuery,
          handle: () => t.service.db.querySql('SELECT secret_column FROM no_such_table'),
        }),
        t.keys,
      );
      const { res, status, body } = await json('/v1/test-boom', 'trial', { headers: { 'x-request-id': 'trace-12345678' } });
      expect(status).toBe(500);
      expectOurError(body, status, 'internal_error');
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/no_such_table|secret_column|SELECT|at \S+:\d+/);
      expect(res.headers.get('x-request-id')).toBe('trace-12345678');
      expect(spy).toHaveBeenCalled();
      expect(String(spy.mock.calls[0]?.[0])).toContain('trace-12345678');
    } finally {
      spy.mockRestore();
    }
  });

  it('validates each distinct query string once and shares its frozen result; a bad one is a 400 every time', async () => {
    const seen: unknown[] = [];
    mountRoute(
      t.app,
      defineRoute({
        path: '/v1/test-echo',
        cost: 1,
        summary: 'test',
        query: querySchema({ offset: v.optional(offsetParam), market: v.optional(marketParam) }),
        handle: ({ query }) => (seen.push(query), query),
      }),
      t.keys,
    );
    const a1 = await json('/v1/test-echo?offset=5&market=sol-perp');
    const a2 = await json('/v1/test-echo?offset=5&market=sol-perp');
    const b = await json('/v1/test-echo?offset=6');
    expect([a1.status, a2.status, b.status]).toEqual([200, 200, 200]);
    expect(a1.body).toEqual({ offset: 5, market: 'SOL-PERP' });
    expect(b.body).toEqual({ offset: 6 });
    expect(seen[0]).toBe(seen[1]);
    expect(seen[2]).not.toBe(seen[0]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    for (let i = 0; i < 2; i++) {
      const bad = await json('/v1/test-echo?offset=-1');
      expectOurError(bad.body, bad.status, 'invalid_parameter');
      expect(bad.body.error.param).toBe('offset');
    }
    expect(seen).toHaveLength(3);
  });

  it('every answer carries x-request-id and x-api-version', async () => {
    const cases: [string, string | null, RequestInit?][] = [
      ['/v1/protocols', 'trial'],
      ['/v1/alpha/markets/stats', 'trial'],
      ['/v1/protocols', null],
      ['/v1/nope', null],
      ['/v1/protocols?foo=1', 'trial'],
      ['/v1/protocols', 'trial', { method: 'POST' }],
      ['/v1/openapi.json', null],
      ['/v1/protocols', 'internal'],
      ['/v1/mcp', 'pro'],
      ['/v1/mcp', 'trial', { method: 'POST' }],
    ];
    const ids = new Set<string>();
    for (const [path, plan, init] of cases) {
      const res = await t.get(path, plan as 'trial' | null, init);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
      ids.add(id!);
      expect(res.headers.get('x-api-version')).toBe('1.0.0-rc.1');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(ids.size).toBe(cases.length);
  });

  it('echoes a sane incoming x-request-id and replaces an unsafe one', async () => {
    const sane = await t.get('/v1/protocols', 'trial', { headers: { 'x-request-id': 'client-req-0001' } });
    expect(sane.headers.get('x-request-id')).toBe('client-req-0001');
    const unsafe = await t.get('/v1/protocols', 'trial', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(unsafe.headers.get('x-request-id')).not.toContain(' ');
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
