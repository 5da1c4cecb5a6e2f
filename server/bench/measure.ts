/**
 * The bench's two measuring instruments: one sequential client over one keep-alive connection
 * (per-endpoint latency, sub-millisecond timing), and autocannon for throughput at N connections.
 */
import { Agent, request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import { percentile } from './server-process.ts';
import { GcPauseRecorder } from '../lib/gc-pauses.ts';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One GET over the keep-alive agent: status, body bytes and elapsed ms (to the last byte). */
export function timedGet(url: string, key: string): Promise<{ status: number; bytes: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'x-api-key': key } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Latency figures of one endpoint (ms). */
export interface LatencyFigures {
  requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** p99 of the first request of each distinct path (never answered before: no cache can help) */
  first_p99_ms: number;
  req_per_s: number;
  statuses: Record<string, number>;
  mean_bytes: number;
  /** true when the time budget ended the run before every planned request was sent */
  truncated: boolean;
  /**
   * The measuring client's own GC pauses while it measured (count, total and longest ms): a pause
   * delays whichever request it meets, so a p99 that a client pause made is the instrument's, not
   * the server's. The client collects its young garbage before it measures (see measureSequential).
   */
  client_gc: { count: number; ms: number; max_ms: number };
}

const round = (x: number): number => Math.round(x * 100) / 100;

// V8's own collection, made reachable without a command-line flag; a minor one (its young generation)
setFlagsFromString('--expose-gc');
const v8Gc = runInNewContext('gc') as (options: { type: 'minor' }) => void;
const collectYoungGarbage = (): void => v8Gc({ type: 'minor' });

/**
 * Sequential requests: a warm-up over `warmup` paths (not measured), then `rounds` passes over
 * `paths` (so with rounds = 2 half the requests repeat an earlier one, as real clients do).
 * `budgetMs` bounds the warm-up and the measured part each (a slow endpoint must not make the
 * bench run for ever); a run cut short says so (`truncated`). `onMeasuring` is called (and awaited)
 * between the warm-up and the measured part (the bench samples the server's CPU time and GC there).
 */
export async function measureSequential(
  base: string,
  key: string,
  paths: string[],
  warmup: string[],
  rounds = 2,
  budgetMs = 20_000,
  onMeasuring?: () => void | Promise<void>,
): Promise<LatencyFigures> {
  const warmEnd = performance.now() + budgetMs / 4;
  for (const p of warmup) {
    await timedGet(base + p, key);
    if (performance.now() > warmEnd) break;
  }
  const all: number[] = [];
  const first: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  await onMeasuring?.();
  // The client starts the measured part with an empty young generation, else the garbage of the
  // bench's own set-up (the workload queries) or of the endpoint before was collected in the middle
  // of it and a client pause would count as server latency. A minor collection only: a full one
  // shrank the client's heap, which then grew again during the measured part (docs/performance.md,
  // "The bench client's own collections").
  collectYoungGarbage();
  const gc = new GcPauseRecorder();
  const t0 = performance.now();
  let truncated = false;
  measure: for (let round = 0; round < rounds; round++) {
    for (const p of paths) {
      if (performance.now() - t0 > budgetMs) {
        truncated = true;
        break measure;
      }
      const r = await timedGet(base + p, key);
      all.push(r.ms);
      if (round === 0) first.push(r.ms);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      bytes += r.bytes;
    }
  }
  const elapsed = (performance.now() - t0) / 1000;
  const pauses = gc.stop();
  const client_gc = { count: pauses.collections, ms: pauses.pause_ms, max_ms: pauses.max_pause_ms };
  all.sort((a, b) => a - b);
  first.sort((a, b) => a - b);
  return {
    requests: all.length,
    p50_ms: round(percentile(all, 50)),
    p99_ms: round(percentile(all, 99)),
    max_ms: round(all[all.length - 1] ?? Number.NaN),
    first_p99_ms: round(percentile(first, 99)),
    req_per_s: Math.round(all.length / elapsed),
    statuses,
    mean_bytes: Math.round(bytes / all.length),
    truncated,
    client_gc,
  };
}

/** Throughput figures of one autocannon run. */
export interface ThroughputFigures {
  connections: number;
  seconds: number;
  req_per_s: number;
  p50_ms: number;
  p99_ms: number;
  statuses: Record<string, number>;
  errors: number;
}

/** autocannon at `connections` over `paths` (cycled) for `seconds`. */
export async function measureThroughput(base: string, key: string | null, paths: string[], connections: number, seconds: number): Promise<ThroughputFigures> {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers: key ? { 'x-api-key': key } : {},
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat?.count ?? 0;
  return {
    connections,
    seconds,
    req_per_s: Math.round(result.requests.total / seconds),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts,
  };
}
