import { rng } from '../../server/bench/workloads.ts';
import { resolveWindow, type HistoryInterval, type HistoryKind, type HistoryWindow } from '../../server/http/history-window.ts';

/**
 * `count` random history windows of `intervals` for the in-memory sets' equality tests (seeded, so
 * each test draws the same ones every run): edges on the hour, on 5 minutes (with `fiveMinuteEdges`)
 * or anywhere; a defaulted `to` a quarter of the time; from a day before `start` to a day past
 * `now`; spans up to `spanDays(interval)` days. A window the plan refuses (too many buckets) is
 * drawn again.
 */
export function randomWindows(opts: {
  count: number;
  seed: number;
  intervals: readonly HistoryInterval[];
  spanDays: (interval: HistoryInterval) => number;
  kind: HistoryKind;
  start: number;
  now: number;
  fiveMinuteEdges: boolean;
}): HistoryWindow[] {
  const { intervals, start, now } = opts;
  const r = rng(opts.seed);
  const out: HistoryWindow[] = [];
  const onHour = (x: number): number => Math.floor(x / 3_600_000) * 3_600_000;
  const on5m = (x: number): number => Math.floor(x / 300_000) * 300_000;
  while (out.length < opts.count) {
    const interval = intervals[Math.floor(r() * intervals.length)]!;
    const span = Math.ceil(r() * opts.spanDays(interval) * 86_400_000);
    const snap = (x: number): number => (r() < 0.4 ? onHour(x) : opts.fiveMinuteEdges && r() < 0.5 ? on5m(x) : x);
    const to = r() < 0.25 ? undefined : snap(start - 86_400_000 + Math.floor(r() * (now - start + 2 * 86_400_000)));
    const from = snap((to ?? now) - span);
    try {
      out.push(resolveWindow({ interval, from, to }, { plan: 'internal', kind: opts.kind, now }));
    } catch {
      // refused by the plan: drawn again
    }
  }
  return out;
}
