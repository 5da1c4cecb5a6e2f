import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import ajv2020Module from 'ajv/dist/2020.js';
import ajvFormatsModule from 'ajv-formats';
import { at, fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { restRoutes } from '../../server/main/app.ts';
import { openApiPath } from '../../server/http/openapi-operations.ts';
import type { RestRoute } from '../../server/http/routes/define.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { resolveStreamScope, scopeEcho } from '../../server/stream/scope.ts';

// CommonJS interop (both packages also export themselves as `default`).
const Ajv2020 = ajv2020Module.default;
type Ajv2020 = InstanceType<typeof Ajv2020>;
const addFormats = ajvFormatsModule.default;
const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';
const C = 'AddrC111111111111111111111111111111111111111';

/**
 * A small journal: A has a closed SOL long (open, increase, partial decrease, close) and an open ETH
 * long with position snapshots; B has three liquidated BTC shorts; C an open SOL short on another
 * variant; beta has one market. Market snapshots for every alpha variant but XAU (fills only).
 */
function journal(): IncomingBatch {
  const btc = { market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', side: 'short' as const, address: B };
  const fills = [
    fill({ time: NOW - 40 * H, position_key: 'X1', address: C, market: 'XAU-PERP', market_variant: 'XAU/USD[USDC-USDC]', size_delta_usd: 250, position_size_usd: 250 }),
    fill({ time: NOW - 30 * H, position_key: 'A1', address: A }),
    fill({ time: NOW - 28 * H, position_key: 'A1', address: A, type: 'increase', size_delta_usd: 500, position_size_usd: 1500, collateral_delta_usd: 0, price: 110, entry_price: 103.333333 }),
    fill({
      time: NOW - 26 * H,
      position_key: 'A1',
      address: A,
      type: 'decrease',
      size_delta_usd: -500,
      position_size_usd: 1000,
      collateral_delta_usd: 0,
      price: 120,
      entry_price: 103.333333,
      pnl_delta_usd: 80.645161,
      borrowing_fee_usd: 0.2,
      funding_fee_usd: 0.1,
      fee_total_usd: 0.8,
    }),
    fill({
      time: NOW - 20 * H,
      position_key: 'A1',
      address: A,
      type: 'close',
      size_delta_usd: -1000,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      price: 125,
      entry_price: 103.333333,
      pnl_delta_usd: 209.677419,
    }),
    ...[10, 8, 6].flatMap((h, i) => [
      fill({
        ...btc,
        time: NOW - h * H,
        position_key: `B${i}`,
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
        ...btc,
        time: NOW - h * H + H,
        position_key: `B${i}`,
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
    ]),
    fill({ time: NOW - 5 * H, position_key: 'A2', address: A, market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]', size_delta_usd: 500, position_size_usd: 500, price: 3000, entry_price: 3000 }),
    fill({ time: NOW - 4 * H, position_key: 'C1', address: C, market_variant: 'SOL/USD[USDC-USDC]', side: 'short', size_delta_usd: 400.123456, position_size_usd: 400.123456 }),
    fill({ time: NOW - 2 * H, protocol: 'beta', position_key: 'F1', address: A, market: 'SOL-PERP', market_variant: null, size_delta_usd: 5000, position_size_usd: 5000 }),
  ].sort((x, y) => x.time - y.time);
  const marketSnapshots = [
    marketSnapshot({ time: NOW - 25 * H, index_price: 118, oi_long_usd: 1000, funding_rate_long: 0.00001, funding_rate_short: -0.00002 }),
    marketSnapshot({ time: NOW - 10 * 60_000, index_price: 118.5, oi_long_usd: 1200, oi_short_usd: 300.5, funding_rate_long: 0.0000123, funding_rate_short: -0.0000456 }),
    marketSnapshot({ time: NOW - 10 * 60_000, market_variant: 'SOL/USD[USDC-USDC]', oi_short_usd: 400.123456 }),
    marketSnapshot({ time: NOW - 10 * 60_000, market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', index_price: 65000.25 }),
    marketSnapshot({ time: NOW - 10 * 60_000, market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]', index_price: 3010, oi_long_usd: 500 }),
    marketSnapshot({
      time: NOW - 10 * 60_000,
      protocol: 'beta',
      market: 'SOL-PERP',
      market_variant: null,
      index_price: 118.4,
      oi_long_usd: 5000,
      funding_rate_long: -0.00001,
      funding_rate_short: -0.00002,
    }),
  ];
  const positionSnapshots = [
    positionSnapshot({ time: NOW - 4 * H, position_key: 'A2', size_usd: 500, collateral_usd: 100, mark_price: 3005 }),
    positionSnapshot({ time: NOW - 10 * 60_000, position_key: 'A2', size_usd: 500, collateral_usd: 100, mark_price: 3010, unsettled_borrowing_usd: 0.05, liquidation_price: 2450.5 }),
    positionSnapshot({ time: NOW - 10 * 60_000, position_key: 'C1', size_usd: 400.123456, collateral_usd: 100, mark_price: 118.5, source: 'poll' }),
  ];
  return { fills, marketSnapshots, positionSnapshots };
}

/** Valid sample values for query parameters (required ones are always sent; the others in the "rich" call). */
const SAMPLES: Record<string, string> = {
  market: 'SOL-PERP',
  market_variant: 'SOL/USD[WSOL-USDC]',
  interval: '1h',
  order: 'asc',
  limit: '2',
  offset: '0',
};

let t: TestApp;
let routes: RestRoute[];
let doc: any;
let ajv: Ajv2020;
let pathParams: Record<string, string>;
/** a beta lifecycle of A, for beta's /:address/:id routes */
let betaId: string;

beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
  routes = restRoutes(t.service);
  const res = await t.app.request('/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = await res.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  // a lifecycle of A, for /:address/:id routes
  const [row] = await t.service.db.querySql("SELECT position_id FROM lifecycles WHERE protocol = 'alpha' AND address = $address ORDER BY position_id LIMIT 1", { address: A });
  pathParams = { address: A, id: String(row!.position_id) };
  const [beta] = await t.service.db.querySql("SELECT position_id FROM lifecycles WHERE protocol = 'beta' AND address = $address ORDER BY position_id LIMIT 1", { address: A });
  betaId = String(beta!.position_id);
});
afterAll(async () => {
  await t?.close();
});

/** JSON pointer escape of one token. */
const esc = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Validates `body` against the document's schema for `status` of the GET operation on `route`. */
function validate(route: RestRoute, status: number, body: unknown): string[] {
  const op = doc.paths[openApiPath(route.path).path].get;
  let pointer = `openapi#/paths/${esc(openApiPath(route.path).path)}/get/responses/${status}`;
  const response = op.responses[String(status)];
  if (response === undefined) return [`status ${status} is not documented on ${route.path}`];
  if (response.$ref) pointer = `openapi${response.$ref}`;
  const check = ajv.compile({ $ref: `${pointer}/content/application~1json/schema` });
  if (check(body)) return [];
  return (check.errors ?? []).map((e: { instancePath: string; message?: string; params: unknown }) => `${route.path} ${status}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

function urlOf(route: RestRoute, query: Record<string, string>): string {
  const params = route.path.startsWith('/v1/beta/') ? { ...pathParams, id: betaId } : pathParams;
  const path = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? 'x'));
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

/** Properties of a route's query schema and whether each is required. */
function queryParams(route: RestRoute): { name: string; required: boolean }[] {
  return Object.entries(route.query.entries).map(([name, schema]) => ({
    name,
    required: (schema as { type: string }).type !== 'optional',
  }));
}

describe('GET /v1/openapi.json', () => {
  it('is served without a key, versioned, and passes swagger-parser validation', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0-rc.1');
    await SwaggerParser.validate(structuredClone(doc));
    // built once: the same content on a second request
    const again = await (await t.app.request('/v1/openapi.json')).json();
    expect(again).toEqual(doc);
  });

  it('lists every route of restRoutes with its path and query parameters, security and error answers', () => {
    const nonRest = ['/v1/stream/{protocol}/fills', '/v1/stream/tickets', '/v1/mcp'];
    expect(Object.keys(doc.paths).sort()).toEqual([...routes.map((r) => openApiPath(r.path).path), ...nonRest].sort());
    for (const route of routes) {
      const { path, params } = openApiPath(route.path);
      const op = doc.paths[path].get;
      expect(op.summary).toBe(route.summary);
      const parameters: any[] = op.parameters ?? [];
      for (const name of params) {
        expect(
          parameters.find((p) => p.in === 'path' && p.name === name),
          `${path} path ${name}`,
        ).toMatchObject({ required: true });
      }
      const query = queryParams(route);
      expect(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.required])).toEqual(query.map((q) => [q.name, q.required]));
      for (const p of parameters) expect(p.schema, `${path} ${p.name}`).toBeTypeOf('object');
      const codes = Object.keys(op.responses).sort();
      const expected = ['200', '500'];
      if (query.length > 0) expected.push('400');
      if (route.auth !== false) expected.push('401', '429');
      if (params.length > 0) expected.push('404');
      expect(codes, path).toEqual(expected.sort());
      expect(op.security, path).toEqual(route.auth === false ? [] : [{ ApiKey: [] }]);
    }
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
  });

  it('documents the stream (22) and MCP (23) endpoints; the scope echo matches its schema', async () => {
    const stream = doc.paths['/v1/stream/{protocol}/fills'].get;
    expect(stream.parameters.map((p: any) => [p.name, p.in])).toEqual([
      ['protocol', 'path'],
      ['market', 'query'],
      ['address', 'query'],
      ['since_seq', 'query'],
    ]);
    expect(Object.keys(stream.responses).sort()).toEqual(['101', '200', '400', '401', '404', '429', '500']);
    expect(stream.description).toMatch(/slow_consumer/);
    const check = ajv.compile({ $ref: 'openapi#/paths/~1v1~1stream~1{protocol}~1fills/get/responses/200/content/application~1json/schema' });
    for (const query of [{}, { market: 'sol-perp' }, { address: A, market: 'BTC-PERP' }]) {
      const echo = scopeEcho(await resolveStreamScope(t.service, 'alpha', query));
      expect(check(echo), JSON.stringify(check.errors)).toBe(true);
    }
    expect(check({ data: { protocol: 'gamma', market: null, address: null, market_variants: [] } })).toBe(false);
    const mcp = doc.paths['/v1/mcp'].post;
    expect(Object.keys(mcp.responses).sort()).toEqual(['200', '202', '401', '403', '500']);
    const forbidden = ajv.compile({ $ref: 'openapi#/components/schemas/Error403' });
    const res = await t.get('/v1/mcp', 'trial', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(res.status).toBe(403);
    expect(forbidden(await res.json())).toBe(true);
  });

  it('documents parameter types from the validation schemas', () => {
    const params = doc.paths['/v1/alpha/accounts/search'].get.parameters as any[];
    expect(params.find((p) => p.name === 'min_trades').schema).toMatchObject({ type: 'integer', minimum: 0 });
    expect(params.find((p) => p.name === 'sort_by').schema.enum).toContain('net_pnl');
    expect(params.find((p) => p.name === 'search').description).toMatch(/prefix/);
    const funding = doc.paths['/v1/alpha/funding-rates/history'].get.parameters as any[];
    expect(funding.find((p) => p.name === 'market_variant')).toMatchObject({ required: true });
    expect(funding.find((p) => p.name === 'interval').schema.enum).toEqual(['1h', '4h', '1d']);
  });

  it('every route has a response schema', () => {
    const missing = routes.filter((r) => r.response === undefined).map((r) => r.path);
    expect(missing, `routes without a response schema: ${missing.join(', ')}`).toEqual([]);
  });
});

describe('real responses validate against the document', () => {
  it('every endpoint with a response schema: 200 bodies match', async () => {
    const errors: string[] = [];
    let checked = 0;
    for (const route of routes) {
      if (route.response === undefined) continue;
      const params = queryParams(route);
      const required = Object.fromEntries(params.filter((p) => p.required).map((p) => [p.name, SAMPLES[p.name] ?? '']));
      // beta has no market variants (any is a 400)
      const sample = (name: string) => (route.path.startsWith('/v1/beta/') && name === 'market_variant' ? undefined : SAMPLES[name]);
      const rich = Object.fromEntries(params.filter((p) => sample(p.name) !== undefined).map((p) => [p.name, sample(p.name)!]));
      for (const query of [required, rich]) {
        const res = await t.get(urlOf(route, query), 'premium');
        const body = await res.json();
        expect(res.status, `${urlOf(route, query)} → ${JSON.stringify(body)}`).toBe(200);
        errors.push(...validate(route, 200, body));
        checked += 1;
      }
    }
    expect(errors).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(2 * 18);
  });

  it('bodies are not trivially empty (the journal exercises the schemas)', async () => {
    for (const path of [
      '/v1/alpha/liquidations/search?limit=2',
      `/v1/alpha/accounts/${A}`,
      '/v1/alpha/markets/stats',
      '/v1/alpha/liquidations/history',
      '/v1/alpha/volume/history',
      '/v1/alpha/open-interest/history',
    ]) {
      const body = (await (await t.get(path, 'premium')).json()) as any;
      expect(Array.isArray(body.data) ? body.data.length : 1, path).toBeGreaterThan(0);
    }
    const page = (await (await t.get('/v1/alpha/liquidations/search?limit=2', 'premium')).json()) as any;
    expect(page.next_cursor).toBeTypeOf('string');
  });

  it('error bodies (400, 401, 404) match the error schemas of their operations', async () => {
    const byPath = (p: string) => routes.find((r) => r.path === p)!;
    const cases: [string, string, 'premium' | null, number][] = [
      ['/v1/alpha/accounts/search', '/v1/alpha/accounts/search?sort_by=nope', 'premium', 400],
      ['/v1/alpha/accounts/search', '/v1/alpha/accounts/search?bogus=1', 'premium', 400],
      ['/v1/alpha/volume/history', '/v1/alpha/volume/history?interval=5m&from=2000-01-01', 'premium', 400],
      ['/v1/alpha/funding-rates/history', '/v1/alpha/funding-rates/history', 'premium', 400],
      ['/v1/protocols', '/v1/protocols', null, 401],
      ['/v1/alpha/accounts/search', '/v1/alpha/accounts/search', null, 401],
      ['/v1/alpha/accounts/:address', '/v1/alpha/accounts/Unknown1111111111111111111111111111111111111', 'premium', 404],
      ['/v1/alpha/accounts/:address', '/v1/alpha/accounts/not-an-address', 'premium', 404],
    ];
    for (const [routePath, url, plan, status] of cases) {
      const res = await t.get(url, plan);
      const body = await res.json();
      expect(res.status, url).toBe(status);
      expect(validate(byPath(routePath), status, body)).toEqual([]);
    }
    // a body that does not match is caught (the check is not vacuous)
    expect(validate(byPath('/v1/protocols'), 401, { error: { code: 'not_found', message: 'x' } })).not.toEqual([]);
    expect(validate(byPath('/v1/protocols'), 200, { data: [{ id: 'alpha', name: 'x', chain: 'solana', extra: 1 }] })).not.toEqual([]);
  });
});
