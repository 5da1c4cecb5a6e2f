/**
 * `npm run bench:poll`: what a client polling a live server meets. The API server runs
 * as `npm start` does, with its simulator source appending a batch every second, and each path is
 * requested once every `--interval` ms (default 50) for `--seconds` (default 15), one client, one
 * path at a time. Prints p50 / p90 / p99 / max and how many requests took over 10 ms.
 *
 * Why not `npm run bench -- --live`: its per-endpoint part sends ~100 requests as fast as they come
 * back, in well under a second, so each endpoint meets at most one append. A dashboard polls: most of
 * its requests come after an append that dropped the cached answer, and it meets every recompute, such
 * as the SQL of `GET /v1/alpha/accounts/stats` over every account or the 24 h activity of
 * `GET /v1/protocols/stats` and `GET /v1/alpha/markets/stats` (docs/performance.md, "Polling a live
 * server").
 *
 * Usage: npm run bench:poll -- [--data DIR] [--scale 10] [--seconds 15] [--interval 50] [--paths /a,/b]
 * The journal: `--data`, else $BENCH_DATA, else /tmp/perps-bench (as `npm run bench`; it must exist).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { KeyStore } from '../keys/store.ts';
import { freePort, health, percentile, spawnServer, untilLive, untilQuiet, untilWarm } from './server-process.ts';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    scale: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    interval: { type: 'string', default: '50' },
    paths: { type: 'string' },
  },
});
const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The current-state endpoints, whose cached answers every append drops (`GET /v1/protocols` and `GET /v1/beta/markets` as a baseline). */
const DEFAULT_PATHS = [
  '/v1/protocols',
  '/v1/protocols/stats',
  '/v1/alpha/markets/stats',
  '/v1/alpha/open-interest',
  '/v1/alpha/volume/history?interval=1d',
  '/v1/alpha/accounts/stats',
  '/v1/alpha/accounts/search?sort_by=volume&limit=20',
  '/v1/alpha/open-positions/stats',
  '/v1/beta/markets/stats',
];

/** One request every `intervalMs` to `url` for `seconds`: the latencies (ms) and the statuses seen. */
async function poll(url: string, key: string, seconds: number, intervalMs: number): Promise<{ ms: number[]; statuses: Set<number> }> {
  const ms: number[] = [];
  const statuses = new Set<number>();
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    ms.push(performance.now() - t0);
    statuses.add(res.status);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return { ms: ms.sort((a, b) => a - b), statuses };
}

async function main(): Promise<void> {
  const store = KeyStore.open(dataDir);
  const { key, record } = store.create({ plan: 'internal', label: 'bench:poll' });
  const port = await freePort();
  const api = await spawnServer({
    name: 'API server',
    script: 'server/main/cli.ts',
    port,
    readyPath: '/v1/openapi.json',
    args: ['start', '--data', dataDir, '--port', String(port), '--source', 'simulate', '--scale', args.scale],
  });
  try {
    say(`API server live after ${(await untilLive(api)).toFixed(1)} s, read side warm after ${(await untilWarm(api)).toFixed(1)} s more`);
    // as `npm run bench -- --live`: a second's batch costs the server ~0.3 s of CPU, so quiet here
    // means the start-up work is over, not that the appends stopped
    say(`API server quiet after ${(await untilQuiet(api, 150)).toFixed(1)} s more`);
    const paths = args.paths ? args.paths.split(',') : DEFAULT_PATHS;
    const seqAtStart = (await health(api)).journal.last_seq;
    const started = Date.now();
    say(`one request every ${args.interval} ms for ${args.seconds} s per path; load average ${load()}`);
    say('path                                                    reqs   p50 ms   p90 ms   p99 ms   max ms  >10 ms');
    const f = (x: number): string => x.toFixed(2).padStart(8);
    for (const path of paths) {
      const { ms, statuses } = await poll(api.url + path, key, Number(args.seconds), Number(args.interval));
      const slow = ms.filter((x) => x > 10).length;
      const bad = [...statuses].filter((s) => s !== 200);
      say(
        `${path.padEnd(54)} ${String(ms.length).padStart(5)} ${f(percentile(ms, 50))} ${f(percentile(ms, 90))} ${f(percentile(ms, 99))} ` +
          `${f(ms[ms.length - 1] ?? NaN)} ${String(slow).padStart(7)}${bad.length ? `  statuses ${bad.join(',')}` : ''}`,
      );
    }
    const appended = (await health(api)).journal.last_seq - seqAtStart;
    say(`${appended.toLocaleString('en-US')} fills appended in ${Math.round((Date.now() - started) / 1000)} s; load average ${load()}`);
  } finally {
    store.revoke(record.id);
    await api.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:poll failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
