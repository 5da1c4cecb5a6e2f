/**
 * The process's garbage-collection pauses since it started observing them: how many collections,
 * their summed and longest pause (V8's `gc` performance entries). `GET /health` reports them, so an
 * operator can tell a latency spike caused by a collection from one caused by a slow query, and
 * `npm run bench` reads them before and after each endpoint's measured part (its "server GC ms").
 * Observing makes Node create one performance entry per collection (it makes none while nothing
 * observes them); the totals are plain counters.
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** Collections and their pauses since {@link observeGcPauses} first ran. */
export interface GcPauses {
  collections: number;
  pause_ms: number;
  max_pause_ms: number;
}

const totals: GcPauses = { collections: 0, pause_ms: 0, max_pause_ms: 0 };
let observer: PerformanceObserver | undefined;

function count(entries: readonly PerformanceEntry[]): void {
  for (const e of entries) {
    totals.collections += 1;
    totals.pause_ms += e.duration;
    if (e.duration > totals.max_pause_ms) totals.max_pause_ms = e.duration;
  }
}

/** Starts observing (once per process; later calls do nothing). */
export function observeGcPauses(): void {
  if (observer) return;
  observer = new PerformanceObserver((list) => count(list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
}

/** The totals now, including entries not yet delivered to the observer; null when not observing. */
export function gcPauses(): GcPauses | null {
  if (!observer) return null;
  count(observer.takeRecords());
  const ms = (x: number) => Math.round(x * 100) / 100;
  return { collections: totals.collections, pause_ms: ms(totals.pause_ms), max_pause_ms: ms(totals.max_pause_ms) };
}
