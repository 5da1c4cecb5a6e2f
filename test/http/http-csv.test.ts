import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../server/main/app.ts';
import { csvColumns, csvOf, wantsCsv } from '../../server/http/csv.ts';
import type { RestRoute } from '../../server/http/routes/define.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { openStreamServer, type StreamServer } from '../helpers/stream.ts';
import { at, fill } from '../helpers/fixtures.ts';

/**
 * Accept: text/csv on every list and history endpoint: the rows of the JSON answer's `data` as
 * RFC 4180 CSV under a header of its field names, the envelope in headers, same validation and
 * credits; every other endpoint keeps answering JSON.
 */
const START = Date.UTC(2026, 3, 20);
const NOW = Date.UTC(2026, 3, 22, 5);
let t: TestApp;
let routes: RestRoute[];
let address = '';
let betaId = 0;
let alphaId = 0;

beforeAll(async () => {
  const sim = new Simulator({ seed: 2, start: START, snapshotsFrom: Date.UTC(2026, 3, 21) });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
  routes = restRoutes(t.service);
  const [row] = await t.service.db.querySql(`SELECT address, count(*) AS n FROM lifecycles WHERE protocol = 'beta'
    AND address IN (SELECT address FROM lifecycles WHERE protocol = 'alpha') GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`);
  address = row!.address as string;
  const ids = await t.service.db.querySql(`SELECT protocol, max(position_id) AS id FROM lifecycles WHERE address = $a GROUP BY 1`, { a: address });
  for (const r of ids)
    if (r.protocol === 'beta') betaId = r.id as number;
    else alphaId = r.id as number;
}, 120_000);
afterAll(() => t?.close());

/** A tiny RFC 4180 reader (quoted fields, doubled quotes, CRLF), for checking the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  return rows;
}

const cell = (v: unknown): string => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** A URL with sample parameters for a route's required ones. */
function urlOf(route: RestRoute): string {
  const beta = route.path.startsWith('/v1/beta/');
  const path = route.path.replace(':address', address).replace(':id', String(beta ? betaId : alphaId));
  const required = Object.entries(route.query.entries)
    .filter(([, s]) => (s as { type: string }).type !== 'optional')
    .map(([n]) => n);
  const sample: Record<string, string> = { market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' };
  const qs = required.map((n) => `${n}=${encodeURIComponent(sample[n]!)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

describe('Accept: text/csv', () => {
  it('every list and history endpoint answers its JSON rows as CSV under a header of their field names', async () => {
    let listed = 0;
    for (const route of routes) {
      if (route.auth === false) continue;
      const url = urlOf(route);
      const json = await t.get(url, 'premium');
      expect(json.status, url).toBe(200);
      const body = (await json.json()) as Record<string, any>;
      const res = await t.get(url, 'premium', { headers: { accept: 'text/csv' } });
      expect(res.status, url).toBe(200);
      const columns = csvColumns(route);
      if (!columns) {
        // not a list: JSON as before
        expect(res.headers.get('content-type'), url).toMatch(/application\/json/);
        continue;
      }
      listed += 1;
      expect(Array.isArray(body.data), url).toBe(true);
      expect(res.headers.get('content-type'), url).toMatch(/^text\/csv/);
      const rows = parseCsv(await res.text());
      const header = body.data.length > 0 ? Object.keys(body.data[0]) : columns;
      expect(rows[0], url).toEqual(header);
      expect([...rows[0]!].sort(), url).toEqual([...columns].sort());
      expect(rows.slice(1), url).toEqual(body.data.map((r: Record<string, unknown>) => header.map((c) => cell(r[c]))));
      if ('next_cursor' in body) expect(res.headers.get('x-next-cursor'), url).toBe(body.next_cursor ?? '');
      if (body.pagination) expect(res.headers.get('x-pagination-total'), url).toBe(String(body.pagination.total));
      if (body.interval) expect([res.headers.get('x-interval'), res.headers.get('x-window-from')], url).toEqual([body.interval, body.from]);
    }
    expect(listed).toBeGreaterThanOrEqual(30);
  });

  it('the data has rows where it matters (accounts with arrays, liquidations, fills, candles)', async () => {
    for (const path of ['/v1/beta/accounts/search?limit=20', '/v1/alpha/liquidations/search?limit=20', '/v1/beta/fills?limit=20', '/v1/beta/prices/history?market=SOL-PERP']) {
      const rows = parseCsv(await (await t.get(path, 'premium', { headers: { accept: 'text/csv' } })).text());
      expect(rows.length, path).toBeGreaterThan(10);
    }
  });

  it('validates, limits and charges as JSON: a 400 is a JSON error, a search costs 5 credits', async () => {
    const bad = await t.get('/v1/beta/fills?side=up', 'premium', { headers: { accept: 'text/csv' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.param).toBe('side');
    expect((await t.get('/v1/beta/fills', null, { headers: { accept: 'text/csv' } })).status).toBe(401);
    const remaining = async () => Number((await t.get('/v1/protocols', 'starter')).headers.get('x-credits-remaining'));
    const before = await remaining();
    await t.get('/v1/beta/volume/history', 'starter', { headers: { accept: 'text/csv' } });
    expect(before - (await remaining())).toBe(6);
  });

  it('the OpenAPI document lists text/csv on the list and history endpoints only', async () => {
    const doc = (await (await t.app.request('/v1/openapi.json')).json()) as any;
    const content = (path: string) => Object.keys(doc.paths[path].get.responses['200'].content);
    expect(content('/v1/beta/fills')).toEqual(['application/json', 'text/csv']);
    expect(content('/v1/alpha/volume/history')).toEqual(['application/json', 'text/csv']);
    expect(content('/v1/beta/accounts/{address}')).toEqual(['application/json']);
    expect(doc.paths['/v1/beta/accounts/search'].get.responses['200'].content['text/csv'].schema.description).toMatch(/net_pnl_usd/);
  });

  it('reads Accept as content negotiation', () => {
    expect(wantsCsv('text/csv')).toBe(true);
    expect(wantsCsv('text/csv;q=0.9, application/json;q=0.5')).toBe(true);
    expect(wantsCsv('application/json, text/csv;q=0.5')).toBe(false);
    expect(wantsCsv('text/html,application/xhtml+xml,*/*;q=0.8')).toBe(false);
    expect(wantsCsv('text/csv;q=0')).toBe(false);
    expect(wantsCsv('application/json, text/csv')).toBe(false);
    expect(wantsCsv('text/csv, application/json')).toBe(true);
    expect(wantsCsv('text/csv, */*')).toBe(true);
    expect(wantsCsv(undefined)).toBe(false);
  });

  it('quotes as RFC 4180 says', () => {
    const text = csvOf(
      ['a', 'b', 'c', 'd'],
      [
        { a: 'x,y', b: 'say "hi"', c: null, d: ['SOL-PERP', 'BTC-PERP'] },
        { a: 'line\nbreak', b: 1.5, c: true, d: [] },
      ],
    );
    expect(text).toBe('a,b,c,d\r\n"x,y","say ""hi""",,"[""SOL-PERP"",""BTC-PERP""]"\r\n"line\nbreak",1.5,true,[]\r\n');
    expect(parseCsv(text)[1]).toEqual(['x,y', 'say "hi"', '', '["SOL-PERP","BTC-PERP"]']);
  });
});

describe('Accept: text/csv on a real server (the hit lane)', () => {
  let s: StreamServer;
  beforeAll(async () => {
    s = await openStreamServer(at('2026-06-02T00:00:00Z'));
    await s.append([fill({ time: at('2026-06-01T00:00:00Z') })]);
  });
  afterAll(async () => s?.close());

  it('a cached JSON answer is not served to a CSV request', async () => {
    const key = s.key('internal');
    const path = '/v1/alpha/volume/history?interval=1h&from=2026-05-31T00:00:00Z&to=2026-06-01T12:00:00Z';
    for (let i = 0; i < 2; i++) expect((await fetch(s.base + path, { headers: { 'x-api-key': key } })).headers.get('content-type')).toMatch(/json/);
    const csv = await fetch(s.base + path, { headers: { 'x-api-key': key, accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toBe('time,volume_usd,fees_usd\r\n2026-06-01T00:00:00.000Z,1000,0.5\r\n');
  });
});
