/**
 * Garbage-collection pauses of this process (V8's `gc` performance entries): how many collections,
 * their summed and their longest pause. `GET /health` reports them since start, so an operator can
 * tell a latency spike caused by a collection from one caused by a slow query; `npm run bench`
 * reads those before and after each endpoint's measured part ("server GC ms"), and records its own
 * client's pauses over the same part ("client GC ms") with a {@link GcPauseRecorder} of its own.
 * Observing makes Node create one performance entry per collection (it makes none while nothing
 * observes them); the totals are plain counters.
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** Collections and their pauses (ms) over what a recorder observed. */
export interface GcPauses {
  collections: number;
  pause_ms: number;
  max_pause_ms: number;
}

/** Counts the collections from its creation until {@link stop}. */
export class GcPauseRecorder {
  private readonly sums: GcPauses = { collections: 0, pause_ms: 0, max_pause_ms: 0 };
  private readonly observer = new PerformanceObserver((list) => this.count(list.getEntries()));

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  private count(entries: readonly PerformanceEntry[]): void {
    for (const e of entries) {
      this.sums.collections += 1;
      this.sums.pause_ms += e.duration;
      if (e.duration > this.sums.max_pause_ms) this.sums.max_pause_ms = e.duration;
    }
  }

  /** The totals so far, including entries not yet delivered to the observer (ms to 0.01). */
  totals(): GcPauses {
    this.count(this.observer.takeRecords());
    const ms = (x: number) => Math.round(x * 100) / 100;
    return { collections: this.sums.collections, pause_ms: ms(this.sums.pause_ms), max_pause_ms: ms(this.sums.max_pause_ms) };
  }

  /** Stops observing and returns the totals. */
  stop(): GcPauses {
    const totals = this.totals();
    this.observer.disconnect();
    return totals;
  }
}

let sinceStart: GcPauseRecorder | undefined;

/** Starts the process-wide recorder that {@link gcPauses} reads (once per process; later calls do nothing). */
export function observeGcPauses(): void {
  sinceStart ??= new GcPauseRecorder();
}

/** The process's totals since {@link observeGcPauses}; null when not observing. */
export function gcPauses(): GcPauses | null {
  return sinceStart?.totals() ?? null;
}
