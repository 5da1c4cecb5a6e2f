/**
 * The chaos run's request-side faults against a running server, on loopback: generated bad
 * requests (whose answers must never be a 5xx, nor a 4xx without our error body), WebSocket clients
 * that never read, and a flood of idle connections with concurrent requests, after which `/health`
 * must still answer fast.
 */
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import { percentile } from '../bench/server-process.ts';

const PATHS = [
  '/v1/protocols',
  '/v1/protocols/stats',
  '/v1/alpha/markets',
  '/v1/alpha/markets/stats',
  '/v1/beta/markets',
  '/v1/beta/markets/stats',
  '/v1/alpha/open-interest',
  '/v1/alpha/open-interest/history',
  '/v1/alpha/volume/history',
  '/v1/alpha/funding-rates',
  '/v1/alpha/funding-rates/history',
  '/v1/alpha/liquidations/history',
  '/v1/alpha/liquidations/search',
  '/v1/alpha/accounts/search',
  '/v1/alpha/accounts/stats',
  '/v1/alpha/open-positions/search',
  '/v1/alpha/open-positions/stats',
  '/v1/alpha/accounts/X',
  '/v1/alpha/accounts/X/history',
  '/v1/alpha/positions/X/1',
  '/v1/alpha/positions/X/1/lifecycle',
  '/v1/stream/alpha/fills',
  '/v1/openapi.json',
  '/health',
];
const PARAMS = ['from', 'to', 'interval', 'limit', 'offset', 'market', 'market_variant', 'sort', 'order', 'side', 'cursor', 'address', 'since_seq', 'q', 'bogus'];
const VALUES = [
  '',
  '-1',
  '0',
  '1e309',
  'NaN',
  '1700000000',
  '2026-13-45',
  '2026-01-01T00:00:00+25:00',
  'x'.repeat(3000),
  '%',
  '%E0%A4%A',
  "'; DROP TABLE fills; --",
  '../../etc/passwd',
  '\u0000',
  '[]',
  '{"a":1}',
  'SOL-PERP',
  'long',
  'desc',
  'abc',
  '5m',
  '9999999999999999999999',
];

/** A deterministic pseudo-random generator (mulberry32), so a run can be repeated. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** One generated raw HTTP/1.1 request: mostly well-framed with bad content, some malformed at the parser's level. */
function badRequest(r: () => number, key: string): string {
  const kind = r();
  if (kind < 0.04) return pick(r, ['GARBAGE\r\n\r\n', 'GET\r\n\r\n', 'GET /v1/protocols HTTP/9.9\r\n\r\n', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/1.1\r\nBad Header\r\n\r\n']);
  if (kind < 0.07) return `GET /v1/protocols HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`;
  const method = r() < 0.85 ? 'GET' : pick(r, ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']);
  let path = pick(r, PATHS).replace('/X', `/${pick(r, ['X', 'Addr1111111111111111111111111111111111111111', '%zz', 'a'.repeat(300), '-1'])}`);
  const n = Math.floor(r() * 4);
  const qs: string[] = [];
  for (let i = 0; i < n; i++) qs.push(`${pick(r, PARAMS)}=${encodeURIComponent(pick(r, VALUES)).replace(/%25/g, r() < 0.3 ? '%' : '%25')}`);
  if (qs.length) path += `?${qs.join('&')}`;
  const auth = r();
  const keyHeader = auth < 0.7 ? `x-api-key: ${key}\r\n` : auth < 0.85 ? `x-api-key: ${key.slice(0, -1)}Z\r\n` : auth < 0.9 ? 'x-api-key: \r\n' : '';
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${keyHeader}connection: close\r\n\r\n`;
}

/** Sends one raw request on its own connection; resolves with the status (0: no answer) and whether a 4xx carried our error body. */
function sendRaw(port: number, text: string): Promise<{ status: number; errorBody: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (b) => chunks.push(b));
    socket.on('error', () => undefined);
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString();
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(all)?.[1] ?? 0);
      const body = all.slice(all.indexOf('\r\n\r\n') + 4);
      resolve({ status, errorBody: /^\{"error":\{"code":"[a-z_]+","message":"[^"]+"/.test(body) || /^HEAD /.test(text) || (status === 405 && /^OPTIONS|^HEAD/.test(text)) });
    });
  });
}

export interface BadRequestFigures {
  sent: number;
  byStatus: Record<string, number>;
  fivexx: number;
  noAnswer: number;
  fourxxWithoutBody: number;
}

/** Sends `n` generated bad requests, `concurrency` at a time. */
export async function badRequests(port: number, key: string, n: number, seed: number, concurrency = 32): Promise<BadRequestFigures> {
  const r = rng(seed);
  const figures: BadRequestFigures = { sent: 0, byStatus: {}, fivexx: 0, noAnswer: 0, fourxxWithoutBody: 0 };
  let next = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      const { status, errorBody } = await sendRaw(port, badRequest(r, key));
      figures.sent++;
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      if (status >= 500) figures.fivexx++;
      if (status === 0) figures.noAnswer++;
      if (status >= 400 && status < 500 && !errorBody) figures.fourxxWithoutBody++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return figures;
}

export interface SlowFigures {
  clients: number;
  rssBeforeMib: number;
  rssPeakMib: number;
  rssAfterMib: number;
  dropped: number;
}

/**
 * Opens `n` stream clients that resume from the oldest fill the server keeps (a 24 h backlog) and
 * never read (their sockets paused), for `ms`; samples the server's RSS meanwhile.
 */
export async function slowConsumers(base: string, key: string, n: number, ms: number, rssMib: () => number): Promise<SlowFigures & { sockets: WebSocket[] }> {
  const before = rssMib();
  const sockets: WebSocket[] = [];
  let dropped = 0;
  for (let i = 0; i < n; i++) {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/stream/alpha/fills?since_seq=0`, { headers: { 'x-api-key': key } });
    ws.on('open', () => (ws as unknown as { _socket: Socket })._socket.pause());
    ws.on('close', (code) => code === 1013 && dropped++);
    ws.on('error', () => undefined);
    sockets.push(ws);
  }
  let peak = before;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    peak = Math.max(peak, rssMib());
  }
  return { clients: n, rssBeforeMib: before, rssPeakMib: peak, rssAfterMib: rssMib(), dropped, sockets };
}

export interface FloodFigures {
  idleOpened: number;
  concurrent: number;
  concurrentStatuses: Record<string, number>;
  healthMs: { p50: number; p99: number; max: number };
}

/** Opens `idle` connections that send nothing, fires `concurrent` requests at once, then times 20 `/health` requests. */
export async function connectionFlood(port: number, key: string, idle: number, concurrent: number): Promise<FloodFigures & { idleSockets: Socket[] }> {
  const idleSockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: idle },
      () =>
        new Promise<void>((resolve) => {
          const s = connect(port, '127.0.0.1', () => resolve());
          s.on('error', () => resolve());
          idleSockets.push(s);
        }),
    ),
  );
  const statuses: Record<string, number> = {};
  const base = `http://127.0.0.1:${port}`;
  await Promise.all(
    Array.from({ length: concurrent }, async (_, i) => {
      const res = await fetch(`${base}${PATHS[i % 17]}`, { headers: { 'x-api-key': key } }).catch(() => null);
      const s = String(res?.status ?? 0);
      statuses[s] = (statuses[s] ?? 0) + 1;
      await res?.arrayBuffer();
    }),
  );
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await (await fetch(`${base}/health`)).arrayBuffer();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    idleOpened: idleSockets.filter((s) => !s.destroyed).length,
    concurrent,
    concurrentStatuses: statuses,
    healthMs: { p50: round(percentile(times, 50)), p99: round(percentile(times, 99)), max: round(times.at(-1)!) },
    idleSockets,
  };
}
