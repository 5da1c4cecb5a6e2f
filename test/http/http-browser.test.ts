/**
 * Browser access on a real port: CORS (allowed origin, refused origin, preflight), compression
 * (smaller body, the same JSON once decompressed, on the full path and the hit lane) and the
 * browser's way onto the fills stream (a single-use ticket or the key as a subprotocol).
 */
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { corsPolicyFrom } from '../../server/http/browser-access.ts';
import { chooseEncoding } from '../../server/http/compression.ts';
import { TICKET_TTL_MS, TicketBook } from '../../server/stream/tickets.ts';
import { at, fill } from '../helpers/fixtures.ts';
import { connect, openStreamServer, type StreamServer } from '../helpers/stream.ts';

const NOW = at('2026-06-02T00:00:00Z');
const ALLOWED = 'https://dash.example.com';
const OI_HISTORY = '/v1/alpha/open-interest/history?market=SOL-PERP&interval=1h&from=2026-05-30T00:00:00Z&to=2026-06-01T12:00:00Z';

let s: StreamServer;

beforeAll(async () => {
  process.env.PERPS_CORS_ORIGINS = `${ALLOWED}, http://localhost:5173`;
  try {
    s = await openStreamServer(NOW);
  } finally {
    delete process.env.PERPS_CORS_ORIGINS;
  }
  await s.append([fill({ time: at('2026-05-30T00:00:00Z') }), fill({ time: at('2026-05-31T01:00:00Z'), type: 'increase', size_delta_usd: 500, position_size_usd: 1500 })]);
});
afterAll(async () => s.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

/** A request by node:http, so the body arrives exactly as sent (fetch would decompress it). */
function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(s.base + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('CORS', () => {
  test('an allowed origin gets its origin back, the headers it may read and Vary: Origin, on answers and errors alike', async () => {
    const key = s.key('pro');
    for (const [path, sentKey, status] of [
      ['/v1/protocols', key, 200],
      ['/v1/protocols', 'pa_bad', 401],
      ['/v1/nowhere', key, 404],
    ] as const) {
      const r = await raw(path, { origin: ALLOWED, 'x-api-key': sentKey });
      expect(r.status, path).toBe(status);
      expect(r.headers['access-control-allow-origin'], path).toBe(ALLOWED);
      expect(String(r.headers['access-control-expose-headers']), path).toContain('x-credits-remaining');
      expect(String(r.headers.vary), path).toContain('origin');
    }
  });

  test('a cached answer from the hit lane carries the same CORS headers', async () => {
    const key = s.key('pro');
    const before = s.server.lane.stats.answered;
    const first = await raw('/v1/alpha/markets', { origin: ALLOWED, 'x-api-key': key });
    const second = await raw('/v1/alpha/markets', { origin: ALLOWED, 'x-api-key': key });
    expect(s.server.lane.stats.answered).toBe(before + 1);
    for (const r of [first, second]) {
      expect(r.status).toBe(200);
      expect(r.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(r.headers.vary).toBe(first.headers.vary);
    }
  });

  test('another origin is answered without CORS headers (the browser withholds it), and its preflight is a 403', async () => {
    const key = s.key('pro');
    const r = await raw('/v1/protocols', { origin: 'https://evil.example.com', 'x-api-key': key });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await raw('/v1/protocols', { origin: 'https://evil.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' }, 'OPTIONS');
    expect(pre.status).toBe(403);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(pre.bytes.toString()).error.code).toBe('origin_not_allowed');
  });

  test('a preflight from an allowed origin allows GET and POST with x-api-key, without a key', async () => {
    const pre = await raw('/v1/alpha/markets/stats', { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' }, 'OPTIONS');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(pre.headers['access-control-allow-headers']).toContain('x-api-key');
    expect(pre.headers['access-control-allow-methods']).toContain('GET');
    expect(Number(pre.headers['access-control-max-age'])).toBeGreaterThan(0);
    // an OPTIONS that is no preflight is still a 405
    expect((await raw('/v1/protocols', { 'x-api-key': s.key('pro') }, 'OPTIONS')).status).toBe(405);
  });

  test('the default is same-origin only; a bad origin list fails with the entry named', () => {
    expect(corsPolicyFrom(undefined)).toEqual({ origins: new Set() });
    expect(corsPolicyFrom('*')).toEqual({ origins: '*' });
    expect(() => corsPolicyFrom('dash.example.com')).toThrow(/'dash.example.com' is not an origin/);
    expect(() => corsPolicyFrom('https://dash.example.com/app')).toThrow(/no path/);
  });
});

describe('compression', () => {
  test('a large JSON answer is smaller with br and gzip, and the same JSON once decompressed', async () => {
    const key = s.key('internal');
    const plain = await raw(OI_HISTORY, { 'x-api-key': key, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.bytes.length).toBeGreaterThan(2_000);
    expect(plain.headers.vary).toBe('accept-encoding');
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // twice: the second answer comes from the hit lane, whose encoding is kept with the cached body
      for (let i = 0; i < 2; i++) {
        const r = await raw(OI_HISTORY, { 'x-api-key': key, 'accept-encoding': encoding === 'br' ? 'gzip, deflate, br' : 'gzip' });
        expect(r.headers['content-encoding'], encoding).toBe(encoding);
        expect(r.headers.vary).toBe('accept-encoding');
        expect(Number(r.headers['content-length'])).toBe(r.bytes.length);
        expect(r.bytes.length).toBeLessThan(plain.bytes.length / 3);
        expect(JSON.parse(decode(r.bytes).toString())).toEqual(JSON.parse(plain.bytes.toString()));
      }
    }
  });

  test('small answers and errors go out as they are', async () => {
    const r = await raw('/v1/protocols', { 'x-api-key': s.key('internal'), 'accept-encoding': 'br' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(r.bytes.toString()).data.length).toBe(2);
  });

  test('Accept-Encoding is read as the RFC says', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('identity')).toBe(null);
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBe(null);
  });
});

describe('browser stream auth', () => {
  const ticketOf = async (key: string): Promise<Response> => fetch(`${s.base}/v1/stream/tickets`, { method: 'POST', headers: { 'x-api-key': key } });

  test('a ticket opens one socket, selects perps.v1 and receives fills; used again it is refused', async () => {
    const r = await ticketOf(s.key('premium', 'tickets'));
    expect(r.status).toBe(201);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const { data } = (await r.json()) as { data: { ticket: string; expires_at: string; protocol: string } };
    expect(data.protocol).toBe('perps.v1');
    expect(Date.parse(data.expires_at) - Date.now()).toBeGreaterThan(20_000);
    const socket = connect(s.base, '/v1/stream/alpha/fills', null, {}, ['perps.v1', `ticket.${data.ticket}`]);
    await socket.opened;
    expect(socket.ws.protocol).toBe('perps.v1');
    await s.append([fill({ time: at('2026-06-01T06:00:00Z'), type: 'increase', size_delta_usd: 100, position_size_usd: 1600 })]);
    await socket.until(() => socket.frames.some((f) => f.data !== undefined));
    socket.ws.close();
    const again = connect(s.base, '/v1/stream/alpha/fills', null, {}, ['perps.v1', `ticket.${data.ticket}`]);
    await expect(again.opened).rejects.toThrow('status 401');
  });

  test('an unknown ticket is a 401; the key as a subprotocol is accepted', async () => {
    const bad = connect(s.base, '/v1/stream/alpha/fills', null, {}, ['perps.v1', 'ticket.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']);
    await expect(bad.opened).rejects.toThrow('status 401');
    const byKey = connect(s.base, '/v1/stream/alpha/fills', null, {}, ['perps.v1', `key.${s.key('premium', 'tickets')}`]);
    await byKey.opened;
    expect(byKey.ws.protocol).toBe('perps.v1');
    byKey.ws.close();
  });

  test('a ticket expires after 30 s and stands for its key: a revoked key voids it', () => {
    let now = 1_000_000;
    const book = new TicketBook(s.keys, () => now);
    const record = s.keys.authenticate(s.key('premium', 'book'))!;
    const late = book.issue(record);
    now += TICKET_TTL_MS + 1;
    expect(book.redeem(late.ticket)).toBeNull();
    const fresh = book.issue(record);
    now += TICKET_TTL_MS;
    expect(book.redeem(fresh.ticket)?.id).toBe(record.id);
    const revoked = s.keys.create({ plan: 'premium', label: 'to revoke' });
    const voided = book.issue(revoked.record);
    s.keys.revoke(revoked.record.id);
    expect(book.redeem(voided.ticket)).toBeNull();
  });

  test('a ticket needs a valid key (401) and a plan with the stream (403), and only POST', async () => {
    expect((await ticketOf('pa_nope')).status).toBe(401);
    const starter = await ticketOf(s.key('starter'));
    expect(starter.status).toBe(403);
    expect(((await starter.json()) as { error: { code: string } }).error.code).toBe('plan_required');
    expect((await fetch(`${s.base}/v1/stream/tickets`, { headers: { 'x-api-key': s.key('premium') } })).status).toBe(405);
  });
});

describe("the explorer's files", () => {
  test('/ is the page, its script and style sheet come from this server, compressed, without a key', async () => {
    const page = await raw('/', { 'accept-encoding': 'identity' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html;charset=UTF-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const html = page.bytes.toString();
    expect(html).toContain('<script type="module" src="/explorer/app.js">');
    expect(html).not.toMatch(/https?:\/\/(?!www\.tradingview\.com)/); // nothing loaded from elsewhere
    const script = await raw('/explorer/app.js', { 'accept-encoding': 'br' });
    expect(script.status).toBe(200);
    expect(script.headers['content-encoding']).toBe('br');
    const js = brotliDecompressSync(script.bytes).toString();
    expect(js).toContain('x-api-key');
    expect(js).not.toMatch(/\bimport\s*\(|from\s*["']https?:/); // one bundle: no further loads
    const style = await raw('/explorer/style.css', {});
    expect(style.headers['content-type']).toBe('text/css;charset=UTF-8');
  });
});
