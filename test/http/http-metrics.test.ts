/**
 * `/metrics` (Prometheus text) and the access log, through a real server: request counts and
 * latency per route template and status, append and source families; one access-log line per
 * request with its request id and key id, and never a key, wherever a client put it.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerMetrics } from '../../server/http/metrics.ts';
import type { RunningServer } from '../../server/main/serve.ts';
import type { Service } from '../../server/service.ts';
import { at, fill } from '../helpers/fixtures.ts';
import { openOneFillServer } from '../helpers/one-fill-server.ts';

let server: RunningServer;
let service: Service;
let key: string;
let dir: string;
let done: () => Promise<void>;
const ADDRESS = 'Addr1111111111111111111111111111111111111111';

beforeAll(async () => {
  const s = await openOneFillServer({ plan: 'premium', fillOver: { address: ADDRESS }, serve: (d) => ({ metrics: 'local', accessLog: join(d, 'access.log') }) });
  ({ server, service, key, dir } = s);
  done = s.close;
});
afterAll(() => done());

const url = (path: string) => `${server.url.replace(/\/$/, '')}${path}`;
const get = (path: string, headers: Record<string, string> = { 'x-api-key': key }) => fetch(url(path), { headers });

describe('/metrics and the access log', () => {
  it('counts requests per route template and status, with latency, appends, source and cache', async () => {
    service.source.setSource('simulated');
    service.source.set('backfilling', { progress: 0.5, etaS: 30, completeToMs: at('2026-05-01T00:00:00Z') });
    for (const [path, headers] of [
      ['/v1/protocols', undefined],
      ['/v1/protocols', undefined],
      ['/v1/protocols', {}],
      [`/v1/alpha/accounts/${ADDRESS}`, undefined],
      ['/v1/alpha/accounts/NoSuchAccount1111111111111111111111111111111', undefined],
      ['/v1/nope', undefined],
      ['/health', {}],
    ] as const)
      await (await get(path, headers)).arrayBuffer();
    await service.append({ fills: [fill({ time: at('2026-06-01T11:00:00Z') }), fill({ time: at('2026-06-01T11:00:00Z') })], marketSnapshots: [], positionSnapshots: [] });

    const res = await get('/metrics', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(value('perps_http_requests_total{method="GET",route="/v1/protocols",status="200"}')).toBe(2);
    expect(value('perps_http_requests_total{method="GET",route="/v1/protocols",status="401"}')).toBe(1);
    expect(value('perps_http_requests_total{method="GET",route="/v1/alpha/accounts/:address",status="200"}')).toBe(1);
    expect(value('perps_http_requests_total{method="GET",route="/v1/alpha/accounts/:address",status="404"}')).toBe(1);
    expect(value('perps_http_requests_total{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(value('perps_http_requests_total{method="GET",route="/health",status="200"}')).toBe(1);
    expect(value('perps_http_request_duration_seconds_count{method="GET",route="/v1/protocols",status="200"}')).toBe(2);
    expect(value('perps_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v1/protocols",status="200"}')).toBe(2);
    expect(text).not.toContain(ADDRESS);
    expect(value('perps_append_fills_total')).toBe(2);
    expect(value('perps_append_commits_total')).toBe(1);
    expect(value('perps_append_lag_seconds')).toBeGreaterThan(0);
    expect(value('perps_journal_last_seq')).toBe(3);
    expect(value('perps_source_phase{source="simulated",phase="backfilling"}')).toBe(1);
    expect(value('perps_source_phase{source="simulated",phase="live"}')).toBe(0);
    expect(value('perps_source_backfill_progress')).toBe(0.5);
    expect(value('perps_source_backfill_eta_seconds')).toBe(30);
    expect(value('perps_source_complete_to_timestamp_seconds')).toBe(at('2026-05-01T00:00:00Z') / 1000);
    expect(value('perps_cache_hits')! + value('perps_cache_misses')!).toBeGreaterThan(0);
    expect(value('perps_cache_hit_ratio')).toBeGreaterThanOrEqual(0);
    expect(value('perps_stream_clients')).toBe(0);
    expect(value('perps_stream_dropped{code="slow_consumer"}')).toBe(0);
    expect(value('perps_process_resident_memory_bytes')).toBeGreaterThan(0);
    service.source.set('live', { progress: null, etaS: null, completeToMs: null });
  });

  it('answers loopback peers only by default, and not at all when off', () => {
    const fake = (remoteAddress: string) => {
      let status = 0;
      const req = { url: '/metrics', method: 'GET', socket: { remoteAddress } } as unknown as IncomingMessage;
      const res = { writeHead: (s: number) => ((status = s), { end: () => undefined }) } as unknown as ServerResponse;
      return { req, res, status: () => status };
    };
    const local = new ServerMetrics('local', service, undefined, undefined);
    expect(local.answer(fake('10.1.2.3').req, fake('10.1.2.3').res)).toBe(false);
    expect(local.answer(fake('::ffff:127.0.0.1').req, fake('::ffff:127.0.0.1').res)).toBe(true);
    expect(new ServerMetrics('open', service, undefined, undefined).answer(fake('10.1.2.3').req, fake('10.1.2.3').res)).toBe(true);
    expect(new ServerMetrics('off', service, undefined, undefined).answer(fake('127.0.0.1').req, fake('127.0.0.1').res)).toBe(false);
  });

  it('writes one line per request with route, status, ms, request id and key id, and never the key', async () => {
    const id = key.slice(3, 11);
    const marked = await get('/v1/protocols', { 'x-api-key': key, 'x-request-id': 'trace-0001-abcd' });
    await marked.arrayBuffer();
    const fresh = await get('/v1/protocols');
    await fresh.arrayBuffer();
    // a key where it does not belong: in the query string, in the path, in another header
    for (const path of [`/v1/protocols?api_key=${key}`, `/v1/${key}`, '/health']) await (await get(path, { 'x-api-key': `${key}x`, authorization: `Bearer ${key}` })).arrayBuffer();
    await (await get(`/v1/alpha/accounts/${ADDRESS}`)).arrayBuffer();
    await new Promise((r) => setTimeout(r, 50));
    const text = readFileSync(join(dir, 'access.log'), 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice(12));
    expect(text).not.toContain(ADDRESS);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const traced = lines.find((l) => l.request_id === 'trace-0001-abcd');
    expect(traced).toMatchObject({ method: 'GET', route: '/v1/protocols', status: 200, key_id: id });
    expect(typeof traced!.ms).toBe('number');
    expect(Object.keys(traced!).sort()).toEqual(['key_id', 'method', 'ms', 'request_id', 'route', 'status', 'time']);
    expect(lines.find((l) => l.request_id === fresh.headers.get('x-request-id'))).toMatchObject({ route: '/v1/protocols', status: 200, key_id: id });
    expect(
      lines
        .filter((l) => l.key_id === null)
        .map((l) => l.status)
        .sort(),
    ).toEqual(expect.arrayContaining([401]));
    expect(lines.find((l) => l.route === '/v1/alpha/accounts/:address')).toMatchObject({ status: 200, key_id: id });
  });
});
