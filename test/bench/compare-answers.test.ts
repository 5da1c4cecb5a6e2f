import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOnly, compareAnswers, differenceCount, formatTallies, type Side } from '../../server/bench/answer-compare.ts';
import { answerPool, jsonGetter } from '../../server/bench/answer-pool.ts';
import { answerRequests, restRoutesOf, type AnswerRequest } from '../../server/bench/answer-requests.ts';
import { startServer, type RunningServer } from '../../server/main/serve.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { openLimits, type Limits } from '../../server/limits/gate.ts';
import { openService, type Service } from '../../server/service.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { tempDataDir } from '../helpers/fixtures.ts';

/**
 * The answer comparison (npm run compare:answers) on a real server over a day and a half simulated: the
 * same server on both sides gives no difference on any route of its OpenAPI document, and a stub
 * that changes one route's answers by one byte is reported on that route alone, with the path.
 */
const START = Date.UTC(2026, 3, 20);
const NOW = Date.UTC(2026, 3, 21, 18);
let service: Service;
let limits: Limits;
let server: RunningServer;
let stub: Server;
let cleanup: () => void;
let a: Side;
let stubSide: Side;
let requests: AnswerRequest[];
let routes: string[];

/** The changed route: its answers get one byte changed by the stub. */
const CHANGED = '/v1/alpha/accounts/search';

beforeAll(async () => {
  const dir = tempDataDir();
  cleanup = dir.cleanup;
  service = await openService({ dataDir: dir.dir, clock: () => NOW });
  for (const batch of new Simulator({ seed: 3, start: START }).advance(NOW)) await service.append(batch);
  const keys = KeyStore.open(dir.dir);
  const key = keys.create({ plan: 'internal', label: 'compare' }).key;
  limits = openLimits(dir.dir, { flushMs: 0 });
  server = await startServer({ service, keys, limits, port: 0, hostname: '127.0.0.1' });
  a = { url: server.url.replace(/\/$/, ''), key };
  // a stub in front of the same server, passing its raw answers on, but for CHANGED (not its
  // sub-routes) whose body gets "0" for its first "1" (as a data time's second, or a digit of a number)
  stub = createServer((req, res) => {
    const changed = new URL(req.url!, a.url).pathname === CHANGED;
    const headers = { ...req.headers, ...(changed ? { 'accept-encoding': 'identity' } : {}) };
    const upstream = request(a.url + req.url, { headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        let body = Buffer.concat(chunks);
        if (changed) body = Buffer.from(body.toString('utf8').replace('1', '0'));
        res.writeHead(answer.statusCode!, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    upstream.end();
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  const port = (stub.address() as { port: number }).port;
  stubSide = { url: `http://127.0.0.1:${port}`, key };
  const doc = await (await fetch(`${a.url}/v1/openapi.json`)).json();
  const rest = restRoutesOf(doc);
  routes = rest.map((r) => r.path);
  requests = answerRequests(rest, await answerPool(jsonGetter(a.url, key), routes), 300);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => stub?.close(resolve));
  await server?.close();
  limits?.close();
  await service?.close();
  cleanup?.();
});

describe('compare:answers', () => {
  it('covers every REST route of the OpenAPI document, GET only and no stream', () => {
    expect(routes).toContain('/v1/alpha/positions/{address}/{id}/lifecycle');
    expect(routes).toContain('/v1/beta/fills');
    expect(routes.some((r) => r.startsWith('/v1/stream/') || r === '/v1/mcp')).toBe(false);
    expect(new Set(requests.map((r) => r.route))).toEqual(new Set(routes));
    expect(requests.some((r) => r.csv)).toBe(true);
    expect(requests.some((r) => r.target.includes('bogus=1'))).toBe(true);
  });

  it('finds no difference between a server and itself, with 2xx and 4xx answers and cursor pages', async () => {
    const tallies = await compareAnswers(a, a, requests);
    expect(differenceCount(tallies), formatTallies('same server', tallies).join('\n')).toBe(0);
    expect([...tallies.keys()].sort()).toEqual([...routes].sort());
    const all = [...tallies.values()];
    expect(all.reduce((n, t) => n + (t.statuses['2xx'] ?? 0), 0)).toBeGreaterThan(requests.length / 2);
    expect(all.reduce((n, t) => n + (t.statuses['4xx'] ?? 0), 0)).toBeGreaterThan(10);
    // cursor pages followed: more answers than requests on the cursor-paged fills
    expect(tallies.get('/v1/alpha/fills')!.requests).toBeGreaterThan(requests.filter((r) => r.route === '/v1/alpha/fills').length);
  }, 60_000);

  it('reports a changed answer on its route alone, with the path', async () => {
    const only = requests.filter((r) => r.route === CHANGED || r.route === '/v1/alpha/markets');
    const tallies = await compareAnswers(a, stubSide, only);
    const changed = tallies.get(CHANGED)!;
    expect(changed.differences.length).toBeGreaterThan(0);
    expect(tallies.get('/v1/alpha/markets')!.differences).toEqual([]);
    const text = formatTallies('stub', tallies).join('\n');
    expect(text).toContain(`DIFFERENT ${CHANGED}: GET ${changed.differences[0]!.target}`);
  }, 30_000);

  it('treats ISO times shifted together by a few milliseconds as the clock, anything else as a difference', () => {
    expect(clockOnly('{"to":"2026-04-23T06:00:00.004Z","x":1}', '{"to":"2026-04-23T06:00:00.009Z","x":1}')).toBe(true);
    expect(clockOnly('{"to":"2026-04-23T06:00:00.004Z","x":1}', '{"to":"2026-04-23T06:00:00.009Z","x":2}')).toBe(false);
    expect(clockOnly('"2026-04-23T06:00:00.000Z","2026-04-16T06:00:00.000Z"', '"2026-04-23T06:00:00.005Z","2026-04-16T06:00:00.006Z"')).toBe(false);
    expect(clockOnly('"2026-04-23T06:00:00Z"', '"2026-04-23T07:00:00Z"')).toBe(false);
    // whole seconds are the data's times, not a reading of the clock
    expect(clockOnly('"2026-04-23T06:00:01.000Z"', '"2026-04-23T06:00:00.000Z"')).toBe(false);
  });
});
