/**
 * Rate limits and credits (contract §2 order, §3 plan table): the sliding-window limiter at exact
 * edges with a fake clock, the 429s and their headers, credits per route cost, no charge on a 4xx,
 * `credits_exhausted` at the exact limit, the internal plan, usage persistence and plan changes.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { at, tempDataDir } from '../helpers/fixtures.ts';
import { RateLimiter, WINDOW_MS } from '../../server/limits/rate-limiter.ts';
import { CreditStore, monthOf, nextMonthStart, usagePath } from '../../server/limits/credits.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { getPlan } from '../../server/keys/plans.ts';
import { restRoutes } from '../../server/main/app.ts';

const NOW = at('2026-06-02T00:00:00Z');

describe('RateLimiter (sliding-window log)', () => {
  it('admits exactly `limit` in a minute; the next gets Retry-After to the first free slot', () => {
    let now = 1_000_000;
    const rl = new RateLimiter({ clock: () => now });
    const start = now;
    for (let i = 0; i < 60; i += 1) {
      now = start + i * 500;
      const d = rl.take('k', 60);
      expect(d).toMatchObject({ allowed: true, limit: 60, remaining: 59 - i, resetSeconds: 60 - Math.floor(i / 2) });
    }
    const over = rl.take('k', 60);
    expect(over).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 31, resetSeconds: 31 });
    now = start + WINDOW_MS - 1; // 1 ms before the first admission leaves the window
    expect(rl.take('k', 60)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    now += 1;
    expect(rl.take('k', 60)).toMatchObject({ allowed: true, remaining: 0 });
    expect(rl.take('k', 60).allowed).toBe(false);
  });

  it('no 2x burst across a minute boundary', () => {
    let now = 59_000; // late in a clock minute
    const rl = new RateLimiter({ clock: () => now });
    for (let i = 0; i < 60; i += 1) expect(rl.take('k', 60).allowed).toBe(true);
    now = 60_000; // a fixed window would reset here
    expect(rl.take('k', 60).allowed).toBe(false);
    now = 118_999;
    expect(rl.take('k', 60).allowed).toBe(false);
    now = 119_000;
    expect(rl.take('k', 60).allowed).toBe(true);
  });

  it('never admits more than the limit in any 60 s window (random arrivals)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    let now = 0;
    const rl = new RateLimiter({ clock: () => now });
    const admitted: number[] = [];
    for (let i = 0; i < 20_000; i += 1) {
      now += Math.floor(rnd() * (rnd() < 0.1 ? 20_000 : 600));
      if (rl.take('k', 50).allowed) admitted.push(now);
    }
    let lo = 0;
    let max = 0;
    for (let hi = 0; hi < admitted.length; hi += 1) {
      while (admitted[lo]! <= admitted[hi]! - WINDOW_MS) lo += 1;
      max = Math.max(max, hi - lo + 1);
    }
    expect(max).toBe(50);
    expect(admitted.length).toBeGreaterThan(1000);
  });

  it('keys are independent; a new limit applies at once and keeps the recent history', () => {
    let now = 0;
    const rl = new RateLimiter({ clock: () => now });
    for (let i = 0; i < 3; i += 1) rl.take('a', 3);
    expect(rl.take('a', 3).allowed).toBe(false);
    expect(rl.take('b', 3).allowed).toBe(true);
    expect(rl.take('a', 5)).toMatchObject({ allowed: true, remaining: 1 });
    expect(rl.take('a', 2).allowed).toBe(false);
    now += WINDOW_MS * 2;
    rl.take('c', 1); // sweeps idle keys
    expect(rl.size).toBe(1);
  });
});

describe('CreditStore persistence', () => {
  const { dir, cleanup } = tempDataDir();
  afterAll(cleanup);

  it('keeps cumulative totals across a restart, never double-counts, loses only the unflushed part', () => {
    let now = NOW;
    const a = CreditStore.open(dir, { clock: () => now, flushMs: 0 });
    a.charge('acct', 5);
    a.charge('acct', 1);
    a.flush();
    a.flush(); // same totals again: no change
    const path = usagePath(dir, '2026-06');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8')).accounts).toEqual({ acct: { requests: 2, credits: 6 } });
    a.charge('acct', 5); // never flushed: the "kill -9" loses it
    const b = CreditStore.open(dir, { clock: () => now, flushMs: 0 });
    expect(b.used('acct')).toEqual({ requests: 2, credits: 6 });
    b.charge('acct', 1);
    b.close();
    b.close();
    const c = CreditStore.open(dir, { clock: () => now, flushMs: 0 });
    expect(c.used('acct')).toEqual({ requests: 3, credits: 7 });
    expect(c.remaining('acct', getPlan('trial'))).toBe(10_000 - 7);
    expect(c.remaining('acct', getPlan('internal'))).toBeNull();
    // a new UTC month starts from zero; the old month's file keeps its totals
    now = at('2026-07-01T00:00:00Z');
    expect(c.used('acct')).toEqual({ requests: 0, credits: 0 });
    c.charge('acct', 1);
    c.close();
    expect(JSON.parse(readFileSync(path, 'utf8')).accounts.acct).toEqual({ requests: 3, credits: 7 });
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-07'), 'utf8')).accounts.acct).toEqual({ requests: 1, credits: 1 });
  });

  it('month helpers are UTC', () => {
    expect(monthOf(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
    expect(nextMonthStart(at('2026-12-31T23:59:59.999Z'))).toBe(at('2027-01-01T00:00:00Z'));
  });

  it('a background flush never replaces totals a later flush wrote first', async () => {
    const s = CreditStore.open(dir, { clock: () => at('2026-04-05T00:00:00Z'), flushMs: 0 });
    s.charge('race', 1);
    const background = s.flushInBackground(); // takes 1 request, writes off the event loop
    s.charge('race', 1);
    s.close(); // synchronous: 2 requests, on disk before the background write is
    await background;
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-04'), 'utf8')).accounts.race).toEqual({ requests: 2, credits: 2 });
    expect(readdirSync(join(dir, 'usage')).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
    // and one with nothing later lands
    const t = CreditStore.open(dir, { clock: () => at('2026-04-05T00:00:00Z'), flushMs: 0 });
    t.charge('race', 3);
    await t.flushInBackground();
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-04'), 'utf8')).accounts.race).toEqual({ requests: 3, credits: 5 });
    t.close();
  });

  it("a background flush that fails as the month ends does not lose the old month's last totals", async () => {
    let now = at('2026-04-30T23:59:59Z');
    const s = CreditStore.open(dir, { clock: () => now, flushMs: 0 });
    s.charge('late', 1);
    const background = s.flushInBackground(); // takes April's totals...
    rmSync(join(dir, 'usage'), { recursive: true, force: true }); // ... and fails: its directory is gone
    now = at('2026-05-01T00:00:01Z');
    s.charge('late', 2); // the roll-over writes April's totals anyway
    await background;
    s.close();
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-04'), 'utf8')).accounts.late).toEqual({ requests: 1, credits: 1 });
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-05'), 'utf8')).accounts.late).toEqual({ requests: 1, credits: 2 });
    expect(readdirSync(join(dir, 'usage')).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it("retries a month's final totals whose write failed at the roll-over, and never fails the request", () => {
    let now = at('2026-08-31T23:59:00Z');
    const s = CreditStore.open(dir, { clock: () => now, flushMs: 0 });
    s.charge('edge', 1);
    s.flush();
    s.charge('edge', 1); // not flushed yet
    rmSync(join(dir, 'usage'), { recursive: true, force: true });
    writeFileSync(join(dir, 'usage'), 'not a directory'); // every write fails
    now = at('2026-09-01T00:00:01Z');
    expect(() => s.charge('edge', 5)).not.toThrow();
    rmSync(join(dir, 'usage'));
    s.close();
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-08'), 'utf8')).accounts.edge).toEqual({ requests: 2, credits: 2 });
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-09'), 'utf8')).accounts.edge).toEqual({ requests: 1, credits: 5 });
  });

  it('flushes on its own timer', async () => {
    const s = CreditStore.open(dir, { clock: () => at('2026-03-05T00:00:00Z'), flushMs: 20 });
    s.charge('timed', 5);
    await new Promise((r) => setTimeout(r, 120));
    expect(JSON.parse(readFileSync(usagePath(dir, '2026-03'), 'utf8')).accounts.timed).toEqual({ requests: 1, credits: 5 });
    s.close();
  });
});

describe('the gate over HTTP', () => {
  let t: TestApp;
  let now = NOW;
  const idOf = (raw: string) => raw.slice(3, 11);
  beforeAll(async () => {
    t = await openTestApp({ now: NOW, limitsClock: () => now });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    now += 10 * WINDOW_MS; // a fresh rate window for each test
  });

  const headersOf = (res: Response) => ({
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
    credits: res.headers.get('x-credits-remaining'),
  });

  it('every route has a contract cost', () => {
    const costs = Object.fromEntries(restRoutes(t.service).map((r) => [r.path, r.cost]));
    expect(costs['/v1/openapi.json']).toBe(0);
    expect(costs['/v1/protocols']).toBe(1);
    expect(costs['/v1/alpha/positions/:address/:id']).toBe(1);
    expect(costs['/v1/alpha/liquidations/search']).toBe(5);
    expect(costs['/v1/alpha/positions/:address/:id/lifecycle']).toBe(5);
    // alpha's 9 and 12, beta's twins of them (9 and 6), fills and price candles of both protocols (5 each)
    expect(Object.values(costs).filter((c) => c === 5)).toHaveLength(9 + 9 + 2 + 2);
    expect(Object.values(costs).filter((c) => c === 1)).toHaveLength(12 + 6);
    expect(costs['/v1/beta/fills']).toBe(5);
    expect(costs['/v1/beta/prices/history']).toBe(5);
    expect(costs['/v1/beta/open-interest']).toBe(1);
  });

  it('headers on 200 and 400; credits 1 vs 5; a 400 or 404 costs nothing', async () => {
    const account = t.keys.get(idOf(t.key('starter')))!.account;
    const ok = await t.get('/v1/protocols', 'starter');
    expect(ok.status).toBe(200);
    expect(headersOf(ok)).toEqual({ limit: '300', remaining: '299', reset: '60', credits: String(250_000 - 1) });
    const hist = await t.get('/v1/alpha/volume/history?interval=1h', 'starter');
    expect(hist.status).toBe(200);
    expect(headersOf(hist)).toMatchObject({ remaining: '298', credits: String(250_000 - 6) });
    const bad = await t.get('/v1/alpha/volume/history?interval=7x', 'starter');
    expect(bad.status).toBe(400);
    expect(headersOf(bad)).toMatchObject({ limit: '300', remaining: '297', reset: '60', credits: String(250_000 - 6) });
    const missing = await t.get('/v1/alpha/accounts/AddrZ111111111111111111111111111111111111111', 'starter');
    expect(missing.status).toBe(404);
    expect(headersOf(missing)).toMatchObject({ remaining: '296', credits: String(250_000 - 6) });
    expect(t.limits.credits.used(account)).toEqual({ requests: 4, credits: 6 });
    // unauthenticated answers carry none of them
    const anon = await t.get('/v1/protocols', null);
    expect(anon.status).toBe(401);
    expect(headersOf(anon)).toEqual({ limit: null, remaining: null, reset: null, credits: null });
    const doc = await t.get('/v1/openapi.json', null);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('ratelimit-limit')).toBeNull();
  });

  it('the 61st trial request in a minute is a 429 rate_limited with Retry-After, before validation', async () => {
    const start = now;
    for (let i = 0; i < 60; i += 1) {
      now = start + i * 100;
      const res = await t.get('/v1/protocols', 'trial');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(59 - i));
    }
    now = start + 30_000;
    const over = await t.get('/v1/protocols?bogus=1', 'trial'); // invalid too: the 429 wins (§2 order)
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(over.headers.get('retry-after')).toBe('30');
    expect(headersOf(over)).toMatchObject({ limit: '60', remaining: '0', reset: '30' });
    expect(over.headers.get('x-credits-remaining')).toMatch(/^\d+$/);
    expect(over.headers.get('x-request-id')).toBeTruthy();
    now = start + 60_000; // the first admission has left the window: one slot, no more
    expect((await t.get('/v1/protocols', 'trial')).status).toBe(200);
    expect((await t.get('/v1/protocols', 'trial')).status).toBe(429);
  });

  it('credits_exhausted at the exact limit, Retry-After to the end of the UTC month', async () => {
    const raw = t.keys.create({ plan: 'trial', account: 'broke' }).key;
    const get = (path: string) => t.app.request(path, { headers: { 'x-api-key': raw } });
    t.limits.credits.charge('broke', 10_000 - 6, 0);
    const five = await get('/v1/alpha/volume/history?interval=1h');
    expect(five.status).toBe(200);
    expect(five.headers.get('x-credits-remaining')).toBe('1');
    const tooDear = await get('/v1/alpha/volume/history?interval=1h'); // costs 5, 1 left
    expect(tooDear.status).toBe(429);
    expect(await tooDear.json()).toMatchObject({ error: { code: 'credits_exhausted' } });
    expect(tooDear.headers.get('retry-after')).toBe(String((at('2026-07-01T00:00:00Z') - now) / 1000));
    const last = await get('/v1/protocols');
    expect(last.status).toBe(200);
    expect(last.headers.get('x-credits-remaining')).toBe('0');
    const none = await get('/v1/protocols');
    expect(none.status).toBe(429);
    expect(none.headers.get('x-credits-remaining')).toBe('0');
    expect(headersOf(none).limit).toBe('60');
    expect(t.limits.credits.used('broke').credits).toBe(10_000);
  });

  it('the internal plan is never limited nor metered', async () => {
    const id = idOf(t.key('internal'));
    for (let i = 0; i < 400; i += 1) {
      const res = await t.get('/v1/beta/markets', 'internal');
      expect(res.status).toBe(200);
      if (i === 0) expect(headersOf(res)).toEqual({ limit: null, remaining: null, reset: null, credits: null });
    }
    expect(t.limits.credits.used(t.keys.get(id)!.account)).toEqual({ requests: 0, credits: 0 });
  });

  it('a plan change takes effect on the next request, also from another process (the CLI)', async () => {
    const raw = t.keys.create({ plan: 'trial', label: 'upgrade' }).key;
    const get = () => t.app.request('/v1/protocols', { headers: { 'x-api-key': raw } });
    for (let i = 0; i < 60; i += 1) expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(429);
    t.keys.setPlan(idOf(raw), 'starter');
    const up = await get();
    expect(up.status).toBe(200);
    expect(headersOf(up)).toMatchObject({ limit: '300', remaining: '239' }); // 60 + this one; the 429 was not recorded
    // another KeyStore on the same dir, like `keys plan`: the server's store sees it within ~1 s
    KeyStore.open(t.dir).setPlan(idOf(raw), 'internal');
    await new Promise((r) => setTimeout(r, 1_100));
    const internal = await get();
    expect(internal.status).toBe(200);
    expect(internal.headers.get('ratelimit-limit')).toBeNull();
  });
});
