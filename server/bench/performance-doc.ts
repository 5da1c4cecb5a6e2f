/**
 * The current-figures block of docs/performance.md, rendered from a `npm run bench` report (the
 * JSON it writes), so the page's table is always one bench run's output, not a hand copy. A frozen,
 * complete run (no `--only`, no `--live`) rewrites the block; `--no-docs` leaves it alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fillBlocks } from '../docs/write-api-md.ts';
import { BASE58_ADDRESS } from '../lib/address.ts';

/** What the renderer reads of the bench's report (a subset of bench.ts's JSON). */
export interface BenchReport {
  at: string;
  journal: { fills: number; accounts: number; open_positions: number };
  cold_start_s: number;
  rss_mib: { now: number; peak: number };
  endpoints: Record<
    string,
    {
      route?: string;
      requests: number;
      p50_ms: number;
      p99_ms: number;
      first_p99_ms: number;
      max_ms: number;
      req_per_s: number;
      server_cpu_ms_per_req: number;
    }
  >;
  throughput: Record<string, { req_per_s: number; p99_ms: number; server_cpu_us_per_req: number | null }>;
  ratios_pct_of_hello: { mixed: number; repeated: number };
  targets: Record<string, boolean>;
}

export const PERFORMANCE_DOC = fileURLToPath(new URL('../../docs/performance.md', import.meta.url));

/** A concrete request path as its route: the query dropped, a wallet as `{address}`, an id after it as `{id}`. */
export function routeOf(path: string): string {
  const segments = path.split('?')[0]!.split('/');
  return segments
    .map((s, i) => {
      if (BASE58_ADDRESS.test(s)) return '{address}';
      if (/^\d+$/.test(s) && BASE58_ADDRESS.test(segments[i - 1] ?? '')) return '{id}';
      return s;
    })
    .join('/');
}

const TARGETS: Record<string, string> = {
  endpoint_p99_le_10ms: 'each endpoint p99 ≤ 10 ms after warm-up',
  mixed_ge_25pct_of_hello: 'mixed workload ≥ 25 % of hello at 50 connections',
  repeated_ge_60pct_of_hello: 'repeated identical request ≥ 60 % of hello',
  rss_le_1_5_gib: 'server RSS ≤ 1.5 GiB',
  cold_start_le_10s: 'cold start ≤ 10 s',
};

const n = (x: number): string => x.toLocaleString('en-US');

/** The block's Markdown. */
export function performanceBlock(r: BenchReport): string {
  const worst = Object.values(r.endpoints).reduce((a, b) => Math.max(a, b.p99_ms), 0);
  const figure: Record<string, string> = {
    endpoint_p99_le_10ms: `worst ${worst.toFixed(2)} ms`,
    mixed_ge_25pct_of_hello: `${r.ratios_pct_of_hello.mixed} %`,
    repeated_ge_60pct_of_hello: `${r.ratios_pct_of_hello.repeated} %`,
    rss_le_1_5_gib: `peak ${n(r.rss_mib.peak)} MiB`,
    cold_start_le_10s: `${r.cold_start_s} s`,
  };
  const lines = [
    `\`npm run bench\` of ${r.at.slice(0, 10)}, on a journal of ${n(r.journal.fills)} fills, ${n(r.journal.accounts)} accounts and`,
    `${n(r.journal.open_positions)} open positions (2 cores).`,
    '',
    '| target | figure | state |',
    '|---|---|---|',
    ...Object.entries(r.targets).map(([k, ok]) => `| ${TARGETS[k] ?? k} | ${figure[k] ?? ''} | ${ok ? 'met' : 'missed'} |`),
    '',
    '| endpoint | requests | p50 ms | p99 ms | p99 first-time ms | max ms | server CPU ms / request |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(r.endpoints).map(
      ([name, e]) =>
        `| \`${e.route ?? name}\` | ${e.requests} | ${e.p50_ms.toFixed(2)} | ${e.p99_ms.toFixed(2)} | ${e.first_p99_ms.toFixed(2)} | ${e.max_ms.toFixed(1)} | ${e.server_cpu_ms_per_req.toFixed(2)} |`,
    ),
    '',
    '| workload at 50 connections | req/s | p99 ms | server CPU µs / request |',
    '|---|---|---|---|',
    ...Object.entries(r.throughput).map(([name, t]) => `| ${name} | ${n(t.req_per_s)} | ${t.p99_ms.toFixed(1)} | ${t.server_cpu_us_per_req ?? '-'} |`),
  ];
  return lines.join('\n');
}

/** Rewrites docs/performance.md's generated block from a report. */
export function writePerformanceDoc(report: BenchReport, file = PERFORMANCE_DOC): void {
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, fillBlocks(text, { bench: performanceBlock(report) }, 'npm run bench'));
}

// `node --import tsx server/bench/performance-doc.ts bench-results.json`: the block from a saved report
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? 'bench-results.json';
  writePerformanceDoc(JSON.parse(readFileSync(file, 'utf8')) as BenchReport);
}
