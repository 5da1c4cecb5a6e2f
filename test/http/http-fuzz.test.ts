/**
 * Fuzzes every route of `restRoutes` (so routes added later are covered automatically) with a few
 * thousand deterministic (seeded) bad and odd parameter combinations. Every answer must be JSON:
 * 200 with `data` (validated against the OpenAPI document's schema when the route has one), or the
 * contract's error body with a known code; never a 500, and only 200/400/401/404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ajv2020Module from 'ajv/dist/2020.js';
import ajvFormatsModule from 'ajv-formats';
import { at, fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { restRoutes } from '../../server/main/app.ts';
import { OPENAPI_PATH } from '../../server/http/openapi.ts';
import { openApiPath } from '../../server/http/openapi-operations.ts';
import { ERROR_CODES } from '../../server/http/response-schemas/error-body.ts';
import type { RestRoute } from '../../server/http/routes/define.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';

// CommonJS interop (both packages also export themselves as `default`).
const Ajv2020 = ajv2020Module.default;
type Ajv2020 = InstanceType<typeof Ajv2020>;
const addFormats = ajvFormatsModule.default;
const NOW = at('2026-06-02T00:00:00Z');
const H = 3_600_000;
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';
const SEED = 20260602;
/** Random requests per route (plus the fixed edge cases). */
const PER_ROUTE = 130;

function journal(): IncomingBatch {
  const fills = [
    fill({ time: NOW - 30 * H, position_key: 'A1', address: A }),
    fill({
      time: NOW - 20 * H,
      position_key: 'A1',
      address: A,
      type: 'close',
      size_delta_usd: -1000,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      price: 110,
      pnl_delta_usd: 100,
    }),
    fill({ time: NOW - 5 * H, position_key: 'A2', address: A, market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]', size_delta_usd: 500, position_size_usd: 500, price: 3000, entry_price: 3000 }),
    fill({
      time: NOW - 3 * H,
      position_key: 'B1',
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
    }),
    fill({
      time: NOW - 1 * H,
      position_key: 'B1',
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
      liquidation_fee_usd: 10,
    }),
  ];
  const marketSnapshots = [
    marketSnapshot({ time: NOW - 10 * 60_000, index_price: 118.5, oi_long_usd: 0, funding_rate_long: 0.00001 }),
    marketSnapshot({ time: NOW - 10 * 60_000, market: 'ETH-PERP', market_variant: 'ETH/USD[USDC-USDC]', index_price: 3010, oi_long_usd: 500 }),
    marketSnapshot({ time: NOW - 10 * 60_000, protocol: 'beta', market: 'SOL-PERP', market_variant: null, funding_rate_long: -0.00001 }),
  ];
  const positionSnapshots = [positionSnapshot({ time: NOW - 10 * 60_000, position_key: 'A2', size_usd: 500, collateral_usd: 100, mark_price: 3010, liquidation_price: 2450 })];
  return { fills, marketSnapshots, positionSnapshots };
}

/** mulberry32: a small seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const rand = prng(SEED);
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;

function randomString(alphabet: string, max: number): string {
  const chars = [...alphabet];
  return Array.from({ length: 1 + int(max) }, () => pick(chars)).join('');
}
const UNICODE = 'aZ09-_/.:%&=?#+ \t\n\'"\\;()[]{}<>*|$`~^ΩμéßЖ中文日本語😀🚀\u202e\u200b\u0000\u0007\uFEFF';

/** Values that are wrong (or odd but valid) for almost any parameter. */
const ODD_VALUES = [
  '',
  ' ',
  '  x  ',
  '-1',
  '0',
  '1',
  '-0',
  '1.5',
  '1e3',
  '1E-7',
  '0x10',
  '+5',
  '00',
  '007',
  '499',
  '500',
  '501',
  '99999999999999999999',
  '9007199254740993',
  '2147483648',
  '1000000000',
  '1000000001',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  'false',
  'TRUE',
  '[]',
  '{}',
  '[1,2]',
  "' OR 1=1 --",
  "'; DROP TABLE fills; --",
  '1; SELECT * FROM accounts',
  "\\' UNION SELECT 1 --",
  '%',
  '%25',
  '%00',
  '\u0000',
  '😀',
  'Ωμέγα',
  '中文',
  '\u202e',
  'x'.repeat(5000),
  '9'.repeat(400),
  // timestamps: epochs, far past / future, impossible dates, odd forms
  '1717200000',
  '1717200000000',
  '1780358400000',
  '-86400',
  '0001-01-01',
  '0000-01-01T00:00:00Z',
  '1970-01-01T00:00:00Z',
  '1900-01-01',
  '9999-12-31T23:59:59-01:00',
  '9999-12-31T23:59:59.999Z',
  '275760-09-13',
  '2026-02-30',
  '2026-13-01',
  '2026-06-01T24:00:00Z',
  '2026-06-01T00:00:60Z',
  '2026-06-01T00:00:00+14:00',
  '2026-06-01T00:00:00-23:59',
  '2026-06-01T00:00:00+99:00',
  '2026-06-01 00:00:00',
  '2026-06-01T00:00:00',
  '2026-06-01T00:00:00.123456789Z',
  '2026-06-01',
  '2026-06-02T00:00:00Z',
  '2026-05-01T00:00:00Z',
  'yesterday',
  'now',
  // domain values, valid and not
  'SOL-PERP',
  'sol-perp',
  'NOPE-PERP',
  'SOL',
  '-PERP',
  'SOL/USD[WSOL-USDC]',
  'SOL/USD[NOPE]',
  'sol/usd[wsol-usdc]',
  'SOL/USD[]',
  A,
  B,
  'AddrZ111111111111111111111111111111111111111',
  '0OIl',
  'Addr',
  'long',
  'short',
  'LONG',
  'asc',
  'desc',
  'DESC',
  '5m',
  '15m',
  '1h',
  '4h',
  '1d',
  '1w',
  '0h',
  '60m',
];

const randomValue = (): string => {
  const r = rand();
  if (r < 0.7) return pick(ODD_VALUES);
  if (r < 0.85) return randomString(UNICODE, 40);
  return randomString('0123456789-.eE+', 25);
};

/** Odd path-parameter values. */
const ODD_PATH_VALUES = [
  'x',
  '0',
  '-1',
  '1.5',
  '1e3',
  '99999999999999999999',
  '9007199254740993',
  '000001',
  A.toLowerCase(),
  `${A}1`,
  A.slice(0, 31),
  'AddrZ111111111111111111111111111111111111111',
  "' OR 1=1 --",
  '%27%3B%20DROP%20TABLE%20fills',
  '😀',
  'Ωμέγα',
  '..',
  '.',
  '%2F',
  '%00',
  'x'.repeat(3000),
  ' ',
  'null',
];

/** Raw (not URL-encoded by us) odd query strings. */
const RAW_QUERIES = [
  '%ZZ=1',
  'market=%E0%A4%A',
  '&&&',
  '=',
  '==1',
  'a',
  '%',
  'market[]=x',
  'market[a]=b',
  '?',
  '#frag',
  'a=1&a=2&a=3',
  'limit=1&limit=1',
  '%00=%00',
  '__proto__=1',
  'constructor=1',
  'x=' + '%41'.repeat(2000),
];

// 429: the `trial` key (60 req/min) is used on purpose and runs into its rate limit; the bulk of the
// requests use an `internal` key, which is never limited.
const STATUSES = new Set([200, 400, 401, 404, 429]);
const CODES_BY_STATUS: Record<number, string[]> = {
  429: ['rate_limited', 'credits_exhausted'],
  400: ['invalid_parameter', 'unknown_parameter', 'window_too_large', 'bad_request'],
  401: ['unauthorized'],
  404: ['not_found'],
};

let t: TestApp;
let routes: RestRoute[];
let ajv: Ajv2020;
let realId: string;

beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: [journal()] });
  routes = restRoutes(t.service);
  const doc = await (await t.app.request(OPENAPI_PATH)).json();
  ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
  const [row] = await t.service.db.querySql('SELECT position_id FROM lifecycles WHERE address = $address ORDER BY position_id LIMIT 1', { address: A });
  realId = String(row!.position_id);
});
afterAll(async () => {
  await t?.close();
});

interface Attempt {
  url: string;
  headers: Record<string, string>;
}

function pathOf(route: RestRoute): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const r = rand();
    if (r < 0.35) return name === 'id' ? realId : A;
    if (r < 0.45 && name === 'id') return String(Number(realId) + 1 + int(5));
    if (r < 0.5) return B;
    const value = pick(ODD_PATH_VALUES);
    return /%/.test(value) ? value : encodeURIComponent(value);
  });
}

function attemptFor(route: RestRoute, keyOf: (plan: 'internal' | 'trial') => string): Attempt {
  const names = Object.keys(route.query.entries);
  const pairs: [string, string][] = [];
  for (const name of names) if (rand() < 0.5) pairs.push([name, randomValue()]);
  const r = rand();
  if (r < 0.1) pairs.push([pick(['foo', 'api_key', 'x-api-key', 'MARKET', 'market ', 'limit[]', 'from_', 'sort', 'page']), randomValue()]);
  else if (r < 0.2 && names.length > 0) {
    const name = pick(names);
    pairs.push([name, randomValue()], [name, randomValue()]);
  } else if (r < 0.3 && names.includes('from') && names.includes('to')) {
    pairs.push(['from', '2026-06-01T12:00:00Z'], ['to', pick(['2026-06-01T00:00:00Z', '2026-06-01T12:00:00Z', '2025-01-01'])]);
  } else if (r < 0.35 && names.includes('interval')) {
    pairs.push(['interval', '5m'], ['from', pick(['1900-01-01', '2000-01-01', '2025-03-01'])]);
  }
  let query = new URLSearchParams(pairs).toString();
  if (rand() < 0.05) query = pick(RAW_QUERIES);
  const k = rand();
  const headers: Record<string, string> = {};
  if (k < 0.8) headers['x-api-key'] = keyOf('internal');
  else if (k < 0.92) headers['x-api-key'] = keyOf('trial');
  else if (k < 0.97) headers['x-api-key'] = 'pa_zzzzzzzz_' + 'A'.repeat(32);
  return { url: query ? `${pathOf(route)}?${query}` : pathOf(route), headers };
}

describe('fuzzing every REST route', () => {
  it('answers thousands of odd requests with 200/400/401/404 and well-formed JSON, never a 500', async () => {
    const keyOf = (plan: 'internal' | 'trial') => t.key(plan);
    const failures: string[] = [];
    const seen = new Map<number, number>();
    let total = 0;
    for (const route of routes) {
      const validator = route.response
        ? ajv.compile({ $ref: `openapi#/paths/${openApiPath(route.path).path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema` })
        : undefined;
      for (let i = 0; i < PER_ROUTE; i += 1) {
        const { url, headers } = attemptFor(route, keyOf);
        total += 1;
        const res = await t.app.request(url, { headers });
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        const label = `${route.path}: GET ${url.slice(0, 200)} → ${res.status}`;
        if (!STATUSES.has(res.status)) {
          failures.push(`${label} (unexpected status) ${(await res.text()).slice(0, 300)}`);
          continue;
        }
        if (!/^application\/json/.test(res.headers.get('content-type') ?? '')) {
          failures.push(`${label}: content-type ${res.headers.get('content-type')}`);
          continue;
        }
        let body: any;
        try {
          body = await res.json();
        } catch {
          failures.push(`${label}: not JSON`);
          continue;
        }
        if (res.status === 200) {
          const key = route.path === OPENAPI_PATH ? 'openapi' : 'data';
          if (body === null || typeof body !== 'object' || !(key in body)) failures.push(`${label}: no ${key}`);
          else if (validator && !validator(body)) {
            failures.push(`${label}: body fails its schema ${JSON.stringify(validator.errors?.[0])}`);
          }
          continue;
        }
        const error = body?.error;
        const keysOk = body && Object.keys(body).join() === 'error' && error && typeof error === 'object' && Object.keys(error).every((k) => ['code', 'message', 'param'].includes(k));
        if (!keysOk || typeof error.message !== 'string' || !(ERROR_CODES as readonly string[]).includes(error.code)) {
          failures.push(`${label}: malformed error body ${JSON.stringify(body).slice(0, 300)}`);
          continue;
        }
        if (!CODES_BY_STATUS[res.status]!.includes(error.code)) failures.push(`${label}: code ${error.code} on a ${res.status}`);
        if (['invalid_parameter', 'unknown_parameter'].includes(error.code) && typeof error.param !== 'string') {
          failures.push(`${label}: ${error.code} without param`);
        }
        if (error.param !== undefined && res.status !== 400) failures.push(`${label}: param on a ${res.status}`);
        if (res.status === 429 && !/^[1-9]\d*$/.test(res.headers.get('retry-after') ?? '')) failures.push(`${label}: 429 without Retry-After`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(2000);
    // the generator reaches every outcome
    for (const status of [200, 400, 401, 404]) expect(seen.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  }, 60_000);

  it('edge cases on every parameter of every route: none is a 500', async () => {
    const key = t.key('premium');
    const failures: string[] = [];
    const EDGE = ['', '-1', '1.5', '99999999999999999999', '1717200000000', '0001-01-01', '9999-12-31T23:59:59.999Z', "'; DROP TABLE fills; --", '😀', 'x'.repeat(5000)];
    for (const route of routes) {
      const base = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => (name === 'id' ? realId : A));
      for (const name of Object.keys(route.query.entries)) {
        for (const value of EDGE) {
          const url = `${base}?${new URLSearchParams([[name, value]])}`;
          const res = await t.app.request(url, { headers: { 'x-api-key': key } });
          if (!STATUSES.has(res.status)) failures.push(`${url.slice(0, 200)} → ${res.status}`);
          await res.arrayBuffer();
        }
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
