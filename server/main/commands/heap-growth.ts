/**
 * How far V8 lets a serving process's heap grow past what its last full collection kept
 * (the RSS target). V8 sizes the next full collection by its own heuristic, up to 4x the
 * surviving heap on a machine with this much memory; at a fixed 2x a live server (appends every
 * second, each invalidating cached answers) holds less heap and peaks lower in RSS with no loss of
 * throughput (docs/performance.md, "Memory settings" and "V8 heap growth"). Read by `start` only: the bulk commands
 * (`rebuild`, `simulate`) do not serve, and their heaps are small.
 */
import v8 from 'node:v8';

/** The growth allowed by default: the next full collection at twice the surviving heap. */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/**
 * The heap growth `PERPS_V8_HEAP_GROWING_PERCENT` asks for: a whole number of percent (the next
 * full collection at 1 + percent/100 times the surviving heap), or null for `0`, which leaves V8's
 * own heuristic. Throws, naming the variable, on anything else.
 */
export function heapGrowingPercentFrom(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.PERPS_V8_HEAP_GROWING_PERCENT;
  if (raw === undefined || raw === '') return DEFAULT_HEAP_GROWING_PERCENT;
  if (!/^\d{1,4}$/.test(raw.trim())) {
    throw new Error(`PERPS_V8_HEAP_GROWING_PERCENT "${raw}": expected a whole number of percent, e.g. 100 (0 leaves V8's own heuristic)`);
  }
  const percent = Number(raw.trim());
  return percent === 0 ? null : percent;
}

/** The V8 option that sets the growth (also a `node` command-line option). */
export function heapGrowthFlag(percent: number): string {
  return `--heap-growing-percent=${percent}`;
}

/**
 * Applies {@link heapGrowingPercentFrom} to this process. V8 reads the flag each time it sizes
 * the next full collection, so setting it at start-up, after the VM is up, takes effect.
 */
export function applyHeapGrowth(env: NodeJS.ProcessEnv = process.env): void {
  const percent = heapGrowingPercentFrom(env);
  if (percent !== null) v8.setFlagsFromString(heapGrowthFlag(percent));
}
