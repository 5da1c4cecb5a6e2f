/**
 * `npm run bench`: builds or reuses a big journal, starts the API server and a bare h3
 * "hello" server as child processes, and measures
 *  - per endpoint, one client, sequential, varied parameters from the data (p50, p99, and the p99
 *    of first-time requests, which no cache can answer);
 *  - the mixed workload (every endpoint's requests interleaved) at 50 connections;
 *  - a repeated identical request at 50 connections;
 *  - the hello baseline at 50 connections, in the same run;
 *  - for each of those three, the serving process's CPU time per request (from /proc);
 *  - the server's RSS (now and peak) and the cold start (process start to first answer).
 * Prints a table and writes JSON (default bench-results.json, git-ignored); a complete frozen run
 * also rewrites the current-figures table of docs/performance.md (`--no-docs` to keep it).
 *
 * Usage: npm run bench -- [--data DIR] [--scale 10] [--seconds 15] [--endpoint-seconds 15] [--no-cache]
 *        [--live] [--only 8,15] [--out FILE] [--no-docs]
 * `--live`: the API server runs with its simulator source (`--source simulate --scale S`) instead of
 * none: it first appends what the journal lacks up to now, then a live batch every second, as
 * `npm start` does, so every measurement pays for the appends and the cache entries each one
 * drops. This grows the bench journal by the time since its last run.
 * The journal: `--data`, else $BENCH_DATA, else /tmp/perps-bench; built with `simulate --scale`
 * when it has no derived state yet (long: minutes per million fills), reused otherwise. A frozen
 * run first merges its small files (the server's compaction job, run before the server starts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { KeyStore } from '../keys/store.ts';
import { statePath } from '../service.ts';
import { measureSequential, measureThroughput, type LatencyFigures, type ThroughputFigures } from './measure.ts';
import { freePort, health, mib, spawnServer, untilLive, untilQuiet, untilWarm, type ServerChild } from './server-process.ts';
import type { GcPauses } from '../lib/gc-pauses.ts';
import type { HealthBody } from '../http/health.ts';
import { discover, endpointWorkloads } from './workloads.ts';
import { routeOf, writePerformanceDoc } from './performance-doc.ts';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    scale: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '15' },
    'endpoint-seconds': { type: 'string', default: '15', description: 'time budget per endpoint (measured part)' },
    connections: { type: 'string', default: '50' },
    'no-cache': { type: 'boolean', default: false },
    live: { type: 'boolean', default: false, description: 'serve with the simulator source appending live' },
    only: { type: 'string', description: 'comma-separated endpoint numbers to measure (default all)' },
    out: { type: 'string', default: 'bench-results.json' },
    'no-docs': { type: 'boolean', default: false, description: "do not rewrite docs/performance.md's table" },
  },
});

const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
const seconds = Number(args.seconds);
const connections = Number(args.connections);
/** Where the CLI's commands run from (the bench spawns `server/main/cli.ts` for the journal's upkeep). */
const PROJECT_ROOT = new URL('../../', import.meta.url).pathname;
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/**
 * One endpoint's figures, with the serving process's CPU time (all its threads) per measured
 * request and its garbage collections during the measured part (from /health; null if absent).
 */
type EndpointFigures = LatencyFigures & { route: string; server_cpu_ms_per_req: number; server_gc: { collections: number; ms: number } | null };

/** The collections and pause ms between two of /health's `gc` readings. */
function gcBetween(before: GcPauses | null, after: GcPauses | null): EndpointFigures['server_gc'] {
  if (!before || !after) return null;
  return { collections: after.collections - before.collections, ms: Math.round((after.pause_ms - before.pause_ms) * 100) / 100 };
}

/** A memory breakdown as one line: the RSS and its parts, the rest as "other". */
function memoryLine(m: HealthBody['memory']): string {
  const other = m.rss_mib - (m.duckdb_mib ?? 0) - m.js_heap_mib - m.js_external_mib;
  return `RSS ${m.rss_mib} MiB = DuckDB ${m.duckdb_mib ?? '?'} + JS heap ${m.js_heap_mib} + JS external ${m.js_external_mib} + other ${other} MiB`;
}

/** Builds the journal with the simulator when the data dir has no derived state yet. */
function ensureJournal(): void {
  if (existsSync(statePath(dataDir)) && existsSync(`${dataDir}/journal`)) return;
  say(`no journal in ${dataDir}: simulating at scale ${args.scale} (this takes a while; it is reused next time)`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'simulate', '--scale', String(args.scale), '--data', dataDir], {
    stdio: 'inherit',
    cwd: PROJECT_ROOT,
  });
  if (r.status !== 0) throw new Error(`simulate failed with status ${r.status}`);
}

/**
 * Frozen runs: runs, before the server starts, the two jobs that can find work in a journal nobody
 * appends to, as the server would on its schedule, so neither runs inside the measured window:
 * - compaction (hourly at :17:40) merges the small files a live run left in today's partitions;
 *   found inside the measured window, it slows the run;
 * - rollup-refresh (every 10 minutes) recomputes every bucket of a state built append by append
 *   and not yet marked refreshed, which takes minutes on the bench journal and would not finish
 *   before a bench's server stops.
 * Both take a second or two when there is nothing to do (docs/performance.md, "Frozen bench runs"). A
 * live run keeps the server's own schedule: it pays for what a live server pays.
 */
function runJobsBeforeFrozenRun(): void {
  for (const job of ['compaction', 'rollup-refresh']) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'jobs', 'run', job, '--data', dataDir], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, PERPS_LOG_LEVEL: '3' },
    });
    if (r.status !== 0) throw new Error(`${job} before the run failed with status ${r.status}: ${r.stderr}`);
    const result = new RegExp(`job ${job}: (\\{.*\\})`).exec(`${r.stdout}${r.stderr}`)?.[1] ?? '(no result printed)';
    say(`${job} before the run, in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${result}`);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  ensureJournal();
  if (!args.live) runJobsBeforeFrozenRun();
  const data = await discover(dataDir);
  const n = (x: number): string => x.toLocaleString('en-US');
  say(
    `journal ${dataDir}: ${n(data.fills)} fills, ${n(data.allAccounts)} accounts (alpha ${n(data.accounts)}), ` +
      `${n(data.allOpenPositions)} open positions (alpha ${n(data.openPositions)}); load average ${load()}`,
  );
  const store = KeyStore.open(dataDir);
  const { key, record } = store.create({ plan: 'internal', label: 'bench' });

  let api: ServerChild | undefined;
  let hello: ServerChild | undefined;
  let peakSampled = 0;
  const sampler = setInterval(() => (peakSampled = Math.max(peakSampled, api?.rss() || 0)), 250);
  // once measuring starts, /health's memory parts every second: those at the highest RSS seen
  let memoryAtPeak: HealthBody['memory'] | null = null;
  let memorySampler: NodeJS.Timeout | undefined;
  try {
    const t0 = performance.now();
    const apiPort = await freePort();
    api = await spawnServer({
      name: 'API server',
      script: 'server/main/cli.ts',
      port: apiPort,
      readyPath: '/v1/openapi.json',
      args: ['start', '--data', dataDir, '--port', String(apiPort), ...(args.live ? ['--source', 'simulate', '--scale', String(args.scale)] : ['--source', 'none'])],
      env: args['no-cache'] ? { PERPS_CACHE: '0' } : {},
    });
    const coldStartS = (performance.now() - t0) / 1000;
    if (args.live) say(`API server live: caught up to now after ${(await untilLive(api)).toFixed(1)} s`);
    const helloPort = await freePort();
    hello = await spawnServer({ name: 'hello server', script: 'server/bench/hello.ts', args: [String(helloPort)], port: helloPort, readyPath: '/hello' });
    say(`API server up in ${coldStartS.toFixed(1)} s (RSS ${mib(api.rss())} MiB)${args['no-cache'] ? ', response cache OFF' : ''}`);
    // the in-memory working sets (liquidation search, the history buckets, hourly funding), the history
    // index and the lifecycle store load or build in the background after the first answer: measured
    // once /health says they are done
    const warmS = await untilWarm(api);
    say(`API server read side warm after ${warmS.toFixed(1)} s more`);
    // then whatever else settles (page cache, JIT); live, a second's batch costs the server ~0.3 s
    // of CPU on its threads, so quiet there means under ~60 % of a core
    say(`API server quiet after ${(await untilQuiet(api, args.live ? 150 : 15)).toFixed(1)} s more`);
    const server = api;
    memorySampler = setInterval(
      () =>
        void health(server).then(
          ({ memory: m }) => {
            if (!memoryAtPeak || m.rss_mib > memoryAtPeak.rss_mib) memoryAtPeak = m;
          },
          () => undefined,
        ),
      1_000,
    );
    const seqAtStart = args.live ? (await health(api)).journal.last_seq : 0;
    const measuredFrom = Date.now();

    const now = Date.now();
    const workloads = endpointWorkloads(data, now);
    const warmups = endpointWorkloads(data, now - 3_600_000, 10);
    const only = args.only ? new Set(args.only.split(',').map((s) => s.trim())) : null;
    const endpoints: Record<string, EndpointFigures> = {};
    say(`\nendpoint                             reqs   p50 ms   p99 ms  p99 first   max ms  req/s  server CPU ms/req  server GC ms  client GC ms  statuses`);
    for (const [i, w] of workloads.entries()) {
      if (only && !only.has(w.name.split(' ')[0]!)) continue;
      let cpu0 = 0;
      let gc0: GcPauses | null = null;
      // at least ~100 measured requests: endpoints with few distinct paths repeat them
      const f = await measureSequential(api.url, key, w.paths, warmups[i]!.paths, Math.max(2, Math.ceil(100 / w.paths.length)), Number(args['endpoint-seconds']) * 1000, async () => {
        gc0 = (await health(server)).gc;
        cpu0 = server.cpuSeconds();
      });
      const cpuMs = Math.round(((server.cpuSeconds() - cpu0) * 1e5) / f.requests) / 100;
      const serverGc = gcBetween(gc0, (await health(server)).gc);
      endpoints[w.name] = { ...f, route: routeOf(w.paths[0] ?? w.name), server_cpu_ms_per_req: cpuMs, server_gc: serverGc };
      const st = Object.entries(f.statuses)
        .map(([k, n]) => `${k}:${n}`)
        .join(' ');
      say(
        `${w.name.padEnd(36)} ${String(f.requests).padStart(5)} ${f.p50_ms.toFixed(2).padStart(8)} ${f.p99_ms.toFixed(2).padStart(8)} ` +
          `${f.first_p99_ms.toFixed(2).padStart(10)} ${f.max_ms.toFixed(1).padStart(8)} ${String(f.req_per_s).padStart(6)} ` +
          `${cpuMs.toFixed(2).padStart(18)} ${(serverGc?.ms.toFixed(1) ?? '?').padStart(13)} ${f.client_gc.ms.toFixed(1).padStart(13)}  ` +
          `${st}${f.truncated ? ' (time budget)' : ''}`,
      );
    }

    // Mixed: every endpoint's requests interleaved (round-robin), so each connection walks all of them.
    const mixed: string[] = [];
    const longest = Math.max(...workloads.map((w) => w.paths.length));
    for (let i = 0; i < longest; i++) for (const w of workloads) if (w.paths.length) mixed.push(w.paths[i % w.paths.length]!);
    const repeatedPath = `/v1/alpha/open-positions/stats?market=${encodeURIComponent(data.markets[0] ?? 'SOL-PERP')}`;

    const runs: Record<string, ThroughputFigures & { server_cpu_us_per_req: number | null }> = {};
    say(`\nthroughput at ${connections} connections, ${seconds} s each (load average ${load()})`);
    // repeated before mixed: slow queries of the mixed run that clients gave up on still occupy the
    // server's readers for a while after it ends
    // Each run also records the serving process's CPU time per request: each server uses about a
    // core and autocannon the other, so "% of hello" is about the inverse ratio of the two servers'
    // CPU per request, a figure the machine's neighbours move less than req/s.
    const measured = async (server: ServerChild, apiKey: string | null, paths: string[]) => {
      const cpu0 = server.cpuSeconds();
      const r = await measureThroughput(server.url, apiKey, paths, connections, seconds);
      const requests = r.req_per_s * r.seconds;
      return { ...r, server_cpu_us_per_req: requests > 0 ? Math.round(((server.cpuSeconds() - cpu0) * 1e6) / requests) : null };
    };
    runs.hello = await measured(hello, null, ['/hello']);
    runs.repeated = await measured(api, key, [repeatedPath]);
    const cacheBefore = (await health(api)).cache;
    runs.mixed = await measured(api, key, mixed);
    // right after the mixed run: the cache's counts, what the RSS is made of, the journal's position
    const after = await health(api);
    const { cache: cacheAfter, memory } = after;
    // what the response cache did during the mixed run (hits, answers computed, entries appends kept)
    const mixedCache =
      cacheBefore && cacheAfter
        ? {
            hits: cacheAfter.hits - cacheBefore.hits,
            computed: cacheAfter.misses - cacheBefore.misses,
            kept_across_appends: cacheAfter.kept_across_appends - cacheBefore.kept_across_appends,
          }
        : null;
    const base = runs.hello.req_per_s;
    const ratio = (x: number): number => Math.round((x / base) * 1000) / 10;
    say(`workload        req/s   p50 ms   p99 ms  % of hello  server CPU µs/req  statuses`);
    for (const [name, r] of Object.entries(runs)) {
      const st = Object.entries(r.statuses)
        .map(([k, n]) => `${k}:${n}`)
        .join(' ');
      say(
        `${name.padEnd(12)} ${String(r.req_per_s).padStart(8)} ${r.p50_ms.toFixed(1).padStart(8)} ${r.p99_ms.toFixed(1).padStart(8)} ` +
          `${ratio(r.req_per_s).toFixed(1).padStart(10)} ${String(r.server_cpu_us_per_req ?? '-').padStart(18)}  ${st}${r.errors ? ` errors:${r.errors}` : ''}`,
      );
    }
    const live = args.live ? { fills_appended: after.journal.last_seq - seqAtStart, seconds: Math.round((Date.now() - measuredFrom) / 1000) } : null;
    if (live) say(`live: ${live.fills_appended.toLocaleString('en-US')} fills appended while measuring (${live.seconds} s)`);
    if (mixedCache) {
      say(
        `response cache in the mixed run: ${mixedCache.hits.toLocaleString('en-US')} hits, ${mixedCache.computed.toLocaleString('en-US')} ` +
          `answers computed, ${mixedCache.kept_across_appends.toLocaleString('en-US')} entries kept across appends`,
      );
    }
    say(`server memory after the mixed run: ${memoryLine(memory)}`);
    if (memoryAtPeak) say(`server memory at the highest RSS sampled while measuring (1/s): ${memoryLine(memoryAtPeak)}`);
    const rssNow = api.rss();
    const rssPeak = Math.max(api.peakRss(), peakSampled);
    const worst = Object.entries(endpoints).sort((a, b) => b[1].p99_ms - a[1].p99_ms)[0];
    const targets = {
      endpoint_p99_le_10ms: Object.values(endpoints).every((f) => f.p99_ms <= 10),
      mixed_ge_25pct_of_hello: ratio(runs.mixed.req_per_s) >= 25,
      repeated_ge_60pct_of_hello: ratio(runs.repeated.req_per_s) >= 60,
      rss_le_1_5_gib: rssPeak <= 1.5 * 1024 ** 3,
      cold_start_le_10s: coldStartS <= 10,
    };
    say(
      `\nserver RSS ${mib(rssNow)} MiB now, ${mib(rssPeak)} MiB peak; cold start ${coldStartS.toFixed(1)} s; ` +
        `worst endpoint p99 ${worst?.[1].p99_ms} ms (${worst?.[0]}); mixed ${ratio(runs.mixed.req_per_s)} % and repeated ` +
        `${ratio(runs.repeated.req_per_s)} % of hello; load average ${load()}`,
    );
    say(
      `targets: ${Object.entries(targets)
        .map(([k, ok]) => `${k} ${ok ? 'met' : 'MISSED'}`)
        .join(', ')}`,
    );
    const report = {
      at: new Date().toISOString(),
      data_dir: dataDir,
      cache: !args['no-cache'],
      live,
      journal: {
        fills: data.fills,
        accounts: data.allAccounts,
        open_positions: data.allOpenPositions,
        alpha_accounts: data.accounts,
        alpha_open_positions: data.openPositions,
      },
      load_average: loadavg(),
      cold_start_s: Math.round(coldStartS * 10) / 10,
      read_side_warm_after_s: Math.round(warmS * 10) / 10,
      rss_mib: { now: mib(rssNow), peak: mib(rssPeak) },
      endpoints,
      throughput: runs,
      mixed_cache: mixedCache,
      memory_after_mixed_mib: memory,
      memory_at_sampled_peak_mib: memoryAtPeak,
      ratios_pct_of_hello: { mixed: ratio(runs.mixed.req_per_s), repeated: ratio(runs.repeated.req_per_s) },
      repeated_path: repeatedPath,
      targets,
      elapsed_s: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(args.out as string, `${JSON.stringify(report, null, 2)}\n`);
    say(`written ${args.out} (${report.elapsed_s} s)`);
    // only a complete, frozen run stands for the current figures
    if (!args['no-docs'] && !args.only && !args.live) {
      writePerformanceDoc(report);
      say(`written docs/performance.md's table`);
    }
  } finally {
    clearInterval(sampler);
    clearInterval(memorySampler);
    await hello?.stop();
    await api?.stop();
    store.revoke(record.id);
  }
}

await main();
