/**
 * The hit lane (server/http/hit-lane.ts) answers repeated requests on a real port before srvx and
 * h3. Its answers must be the full path's: same status, body and headers (but the request id and
 * date), the same limits and credits, never stale, and everything it cannot answer left to the
 * full path. Uncached answers come from a second app over the same service with its cache off.
 */
import type { H3 } from 'h3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { appLoaded, createApp } from '../../server/main/app.ts';
import { ResponseCache } from '../../server/cache/response-cache.ts';
import { BYTES_FROM_CHARS } from '../../server/cache/json-body.ts';
import { at, fill } from '../helpers/fixtures.ts';
import { openStreamServer, type StreamServer } from '../helpers/stream.ts';

const NOW = at('2026-06-02T00:00:00Z');
const ADDRESS = 'Addr1111111111111111111111111111111111111111';
const OI_HISTORY = `/v1/alpha/open-interest/history?market=SOL-PERP&interval=1h&from=2026-05-31T00:00:00Z&to=2026-06-01T12:00:00Z`;
const VOLUME_HISTORY = OI_HISTORY.replace('open-interest', 'volume');
const PATHS = ['/v1/protocols', '/v1/alpha/markets', `/v1/alpha/accounts/${ADDRESS}`, OI_HISTORY, '/v1/alpha/open-positions/stats?market=SOL-PERP'];

let s: StreamServer;
let uncached: H3;

beforeAll(async () => {
  s = await openStreamServer(NOW);
  await s.append([fill({ time: at('2026-06-01T00:00:00Z') }), fill({ time: at('2026-06-01T01:00:00Z'), type: 'increase', size_delta_usd: 500, position_size_usd: 1500 })]);
  uncached = createApp(s.service, s.keys, s.limits, { cache: new ResponseCache(s.service, { enabled: false }) });
  await appLoaded(uncached);
});
afterAll(async () => s.close());

/** uncompressed (fetch would ask for gzip), so `content-length` is the body's; test/http/http-browser.test.ts covers compressed lane answers */
const get = (path: string, key: string | null, init: RequestInit = {}): Promise<Response> =>
  fetch(s.base + path, { ...init, headers: { 'accept-encoding': 'identity', ...(key === null ? {} : { 'x-api-key': key }), ...(init.headers as Record<string, string>) } });
/** the headers of an answer but those that differ between any two answers */
const stableHeaders = (r: Response): [string, string][] => [...r.headers].filter(([n]) => n !== 'date' && n !== 'x-request-id');
const answered = (): number => s.server.lane.stats.answered;

describe('hit lane', () => {
  test("a repeated request is answered by the lane with the full path's status, body and headers", async () => {
    const key = s.key('internal');
    for (const path of PATHS) {
      const before = answered();
      const first = await get(path, key);
      expect(answered(), path).toBe(before);
      const second = await get(path, key);
      expect(answered(), path).toBe(before + 1);
      expect(second.status, path).toBe(200);
      const body = await second.text();
      expect(body, path).toBe(await first.text());
      expect(stableHeaders(second), path).toEqual(stableHeaders(first));
      expect(second.headers.get('content-length'), path).toBe(String(Buffer.byteLength(body)));
      const plain = await uncached.request(path, { headers: { 'x-api-key': key } });
      expect(body, path).toBe(await plain.text());
    }
  });

  test("rate-limit and credit headers move as on the full path; the 429 is the app's", async () => {
    const key = s.key('trial', 'lane-limits'); // 60 requests a minute
    const path = '/v1/protocols/stats'; // 1 credit
    const remaining: string[] = [];
    const credits: string[] = [];
    const before = answered();
    for (let i = 0; i < 60; i++) {
      const r = await get(path, key);
      expect(r.status).toBe(200);
      remaining.push(r.headers.get('ratelimit-remaining')!);
      credits.push(r.headers.get('x-credits-remaining')!);
      expect(r.headers.get('ratelimit-limit')).toBe('60');
    }
    expect(answered()).toBe(before + 59);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)));
    expect(credits).toEqual(Array.from({ length: 60 }, (_, i) => String(10_000 - 1 - i)));
    const refused = await get(path, key);
    expect(answered()).toBe(before + 60); // refused by the lane
    // the full path's refusal of the same key, on a target the lane has not seen
    const full = await get('/v1/beta/markets/stats', key);
    expect(answered()).toBe(before + 60);
    for (const r of [refused, full]) {
      expect(r.status).toBe(429);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
      expect(r.headers.get('x-credits-remaining')).toBe('9940'); // nothing charged for a refusal
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(
      stableHeaders(refused)
        .map(([n]) => n)
        .sort(),
    ).toEqual(
      stableHeaders(full)
        .map(([n]) => n)
        .sort(),
    );
  });

  test('after an append the lane does not answer until the full path has computed the new answer', async () => {
    const key = s.key('internal');
    const path = `/v1/alpha/accounts/${ADDRESS}`;
    await get(path, key);
    const old = await (await get(path, key)).text();
    await s.append([fill({ time: at('2026-06-01T02:00:00Z'), type: 'close', size_delta_usd: -1500, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0, price: 110 })]);
    const before = answered();
    const fresh = await (await get(path, key)).text();
    expect(answered()).toBe(before);
    expect(fresh).not.toBe(old);
    expect(fresh).toBe(await (await uncached.request(path, { headers: { 'x-api-key': key } })).text());
    expect(await (await get(path, key)).text()).toBe(fresh);
    expect(answered()).toBe(before + 1);
  });

  test("no key, a wrong key, HEAD (answered like GET) and POST on a known target are the full path's", async () => {
    const key = s.key('internal');
    await get('/v1/protocols', key);
    const before = answered();
    const none = await get('/v1/protocols', null);
    const wrong = await get('/v1/protocols', `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`);
    const head = await get('/v1/protocols', key, { method: 'HEAD' });
    const post = await get('/v1/protocols', key, { method: 'POST' });
    expect([none.status, wrong.status, head.status, post.status]).toEqual([401, 401, 200, 405]);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(answered()).toBe(before);
  });

  test('a plan change and a revocation apply to lane answers at once', async () => {
    const raw = s.keys.create({ plan: 'trial', label: 'lane revoke' });
    await get(VOLUME_HISTORY, raw.key);
    const before = answered();
    expect((await get(VOLUME_HISTORY, raw.key)).headers.get('ratelimit-limit')).toBe('60');
    expect(answered()).toBe(before + 1);
    s.keys.setPlan(raw.record.id, 'premium');
    const premium = await get(VOLUME_HISTORY, raw.key);
    expect(premium.headers.get('ratelimit-limit')).toBe('3000');
    expect(await premium.text()).toBe(await (await uncached.request(VOLUME_HISTORY, { headers: { 'x-api-key': raw.key } })).text());
    s.keys.revoke(raw.record.id);
    const at = answered();
    const revoked = await get(VOLUME_HISTORY, raw.key);
    expect(revoked.status).toBe(401);
    expect(answered()).toBe(at);
  });

  test('a sane x-request-id is echoed, any other replaced by a fresh id', async () => {
    const key = s.key('internal');
    await get('/v1/alpha/markets', key);
    const before = answered();
    const echoed = await get('/v1/alpha/markets', key, { headers: { 'x-request-id': 'client-req-0001' } });
    const replaced = await get('/v1/alpha/markets', key, { headers: { 'x-request-id': 'bad id!' } });
    expect(answered()).toBe(before + 2);
    expect(echoed.headers.get('x-request-id')).toBe('client-req-0001');
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("a plan's depth keys the answer: a plan with another depth is not served another's", async () => {
    const trial = s.key('trial', 'lane-depth');
    const premium = s.key('premium', 'lane-depth');
    await get(OI_HISTORY, trial);
    const before = answered();
    const first = await get(OI_HISTORY, premium);
    expect(answered()).toBe(before); // computed under premium's depth, not served trial's entry
    await get(OI_HISTORY, premium);
    expect(answered()).toBe(before + 1);
    expect(await first.text()).toBe(await (await uncached.request(OI_HISTORY, { headers: { 'x-api-key': premium } })).text());
  });

  test('long answers (kept and sent as bytes) are byte for byte the uncached ones, with their length', async () => {
    const key = s.key('internal');
    const owner = 'Big1111111111111111111111111111111111111111';
    // 120 positions opened and liquidated: a long liquidation page (bytes from the in-memory
    // index) and a long account history (text the cache keeps as bytes)
    const fills = Array.from({ length: 120 }, (_, i) => [
      fill({ time: at('2026-06-01T03:00:00Z') + i * 1000, address: owner, position_key: `big-${i}`, tx: `big-open-${i}` }),
      fill({
        time: at('2026-06-01T05:00:00Z') + i * 1000,
        address: owner,
        position_key: `big-${i}`,
        tx: `big-liq-${i}`,
        type: 'liquidation',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        price: 90 + i / 8,
        pnl_delta_usd: -100,
        liquidation_fee_usd: 5,
      }),
    ]).flat();
    await s.append(fills);
    for (const path of ['/v1/alpha/liquidations/search?limit=500', `/v1/alpha/accounts/${owner}/history?limit=100`]) {
      const plain = await (await uncached.request(path, { headers: { 'x-api-key': key } })).text();
      expect(plain.length, path).toBeGreaterThan(BYTES_FROM_CHARS);
      const before = answered();
      for (const lane of [false, true]) {
        const r = await get(path, key);
        expect(answered(), path).toBe(before + (lane ? 1 : 0));
        const body = await r.text();
        expect(body, path).toBe(plain);
        expect(r.headers.get('content-length'), path).toBe(String(Buffer.byteLength(body)));
        expect(r.headers.get('content-type'), path).toBe('application/json;charset=UTF-8');
      }
    }
  });
});
