/**
 * `npm run bench:queries` (read side): the per-endpoint workload of `npm run bench`, run
 * in-process through the real app (`app.request`, response cache off, so every request computes),
 * one request at a time. Per endpoint: wall p50 / p90 / p99 / max and the process CPU time per
 * request (user + sys of every thread, DuckDB's included), which a busy shared machine disturbs
 * far less than wall time. Use it to compare query plans; `npm run bench` stays the HTTP figure.
 *
 * Usage: npm run bench:queries -- [--data DIR] [--only 8,9] [--rounds 1] [--n 100] [--slowest N]
 *   --slowest N   also print the N slowest paths of each endpoint with their time
 * The server must not be running on DIR (DuckDB allows one process per database file).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { appLoaded, createApp } from '../main/app.ts';
import { HistoryIndex } from '../read/lifecycles/history-index.ts';
import { LifecycleStore } from '../read/lifecycles/lifecycle-store.ts';
import { ResponseCache } from '../cache/response-cache.ts';
import { KeyStore } from '../keys/store.ts';
import { openLimits } from '../limits/gate.ts';
import { openService } from '../service.ts';
import { percentile } from './server-process.ts';
import { discover, endpointWorkloads } from './workloads.ts';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
    n: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    slowest: { type: 'string', description: 'print the N slowest paths of each endpoint' },
  },
});
const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const f1 = (x: number): string => x.toFixed(1).padStart(7);

const data = await discover(dataDir);
const service = await openService({ dataDir });
const keys = KeyStore.open(dataDir);
const limits = openLimits(dataDir);
const { key, record } = keys.create({ plan: 'internal', label: 'bench:queries' });
const history = new HistoryIndex(service);
const app = createApp(service, keys, limits, { cache: new ResponseCache(service, { enabled: false }), history });
// the in-memory sets and the lifecycle store, as the HTTP bench waits for them (else the first
// requests measure their SQL fallbacks)
await Promise.all([appLoaded(app), LifecycleStore.of(service).follow(history), LifecycleStore.of(service, 'beta').follow(history)]);
const get = async (path: string): Promise<number> => {
  const res = await app.request(path, { headers: { 'x-api-key': key } });
  await res.text();
  return res.status;
};

try {
  const now = Date.now();
  const workloads = endpointWorkloads(data, now, Number(args.n));
  const warmups = endpointWorkloads(data, now - 3_600_000, Number(args.warmup));
  const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : null;
  say(`in-process, cache off; load average ${load()}`);
  say(`endpoint                             reqs     p50     p90     p99     max  cpu ms/req  statuses`);
  for (const [i, w] of workloads.entries()) {
    if (only && !only.has(w.name.split(' ')[0]!)) continue;
    for (const p of warmups[i]!.paths) await get(p);
    const ms: number[] = [];
    const slow: [number, string][] = [];
    const statuses: Record<string, number> = {};
    const cpu0 = process.cpuUsage();
    for (let r = 0; r < Number(args.rounds); r++) {
      for (const p of w.paths) {
        const t0 = performance.now();
        const st = await get(p);
        ms.push(performance.now() - t0);
        slow.push([performance.now() - t0, p]);
        statuses[st] = (statuses[st] ?? 0) + 1;
      }
    }
    const cpu = process.cpuUsage(cpu0);
    ms.sort((a, b) => a - b);
    const st = Object.entries(statuses)
      .map(([k, n]) => `${k}:${n}`)
      .join(' ');
    say(
      `${w.name.padEnd(36)} ${String(ms.length).padStart(4)} ${f1(percentile(ms, 50))} ${f1(percentile(ms, 90))} ` +
        `${f1(percentile(ms, 99))} ${f1(ms[ms.length - 1] ?? NaN)} ${f1((cpu.user + cpu.system) / 1000 / ms.length).padStart(11)}  ${st}`,
    );
    if (args.slowest) for (const [t, p] of slow.sort((a, b) => b[0] - a[0]).slice(0, Number(args.slowest))) say(`    ${t.toFixed(1).padStart(7)} ${p}`);
  }
  say(`load average ${load()}`);
} finally {
  keys.revoke(record.id);
  limits.close();
  await service.close();
}
