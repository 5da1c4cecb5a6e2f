/**
 * The window logic of the bucketed history endpoints
 * (`GET /v1/alpha/{liquidations,open-interest,volume,funding-rates}/history`; contract §4) in one
 * place: interval → bucket size, default window, plan clamping, `from >= to` and the 10,000-bucket cap,
 * and the `{ interval, from, to, data }` envelope.
 *
 * - `to` defaults to now (the service clock); `from` defaults to `to` minus the interval's default
 *   span (5m → 1 d, 15m → 3 d, 1h → 7 d, 4h → 30 d, 1d → 365 d). The interval defaults to `1h`.
 * - `from >= to` (as given, or defaulted) is a 400 `invalid_parameter` on `from`.
 * - `from` is then clamped to the plan's depth for the endpoint kind, measured back from now
 *   (OI / volume: `historyDays`, funding: `fundingHistoryDays`, liquidations:
 *   `liquidationLookbackDays`; null = full history). A window that ends at or before that floor
 *   is a 400 `invalid_parameter` on `to` (it would otherwise be a silent empty answer).
 * - Buckets are aligned to the UTC epoch; a window that touches more than 10,000 buckets
 *   (counting the partial first and last ones) is a 400 `window_too_large`.
 * - The envelope echoes the effective `from` / `to` as ISO timestamps with milliseconds.
 */
import { ApiError } from './errors.ts';
import type { PlanName } from '../keys/plans.ts';
import { isoFromMs } from '../db/values.ts';
import { bucketCount, DEFAULT_INTERVAL, DEFAULT_SPAN_MS, depthDays, INTERVAL_MS, MAX_BUCKETS, type HistoryInterval, type HistoryKind, type HistoryWindow } from '../read/window.ts';
import { DAY_MS } from '../lib/time.ts';

export type { HistoryInterval, HistoryKind, HistoryWindow };

/** Resolves the query's interval / from / to into the effective window (throws the contract's 400s). */
export function resolveWindow(query: { interval?: HistoryInterval; from?: number; to?: number }, opts: { plan: PlanName; kind: HistoryKind; now: number }): HistoryWindow {
  const interval = query.interval ?? DEFAULT_INTERVAL;
  const bucketMs = INTERVAL_MS[interval];
  const now = opts.now;
  const to = query.to ?? now;
  let from = query.from ?? to - DEFAULT_SPAN_MS[interval];
  if (from >= to) {
    throw new ApiError(400, 'invalid_parameter', `Parameter 'from' must be before 'to' (the window is [from, to), to = ${isoFromMs(to)}).`, 'from');
  }
  let clamped = false;
  const days = depthDays(opts.plan, opts.kind);
  if (days !== null) {
    const floor = now - days * DAY_MS;
    if (to <= floor) {
      throw new ApiError(400, 'invalid_parameter', `Parameter 'to' must be after ${isoFromMs(floor)}: the ${opts.plan} plan covers ${days} days of this history.`, 'to');
    }
    if (from < floor) {
      from = floor;
      clamped = true;
    }
  }
  const buckets = bucketCount(from, to, bucketMs);
  if (buckets > MAX_BUCKETS) {
    throw new ApiError(400, 'window_too_large', `The window spans ${buckets} buckets of ${interval}; at most ${MAX_BUCKETS} are allowed: narrow from/to or use a larger interval.`);
  }
  return { interval, bucketMs, from, to, now, clamped };
}

/** The history envelope `{ interval, from, to, data }` (data oldest first). */
export function historyEnvelope<T>(w: HistoryWindow, data: T[]): { interval: string; from: string; to: string; data: T[] } {
  return { interval: w.interval, from: isoFromMs(w.from), to: isoFromMs(w.to), data };
}
