/**
 * The bucketed history windows as data: interval → bucket size, the default span, the plan depth
 * per endpoint kind, the bucket count and the SQL parameters of a window. The contract's rules
 * that turn a query into a window (and its 400s) are the front door's: server/http/history-window.ts.
 */
import { getPlan, type PlanName } from '../keys/plans.ts';

/** The intervals of the history endpoints (`5m` and `15m` only where buckets are that fine). */
export type HistoryInterval = '5m' | '15m' | '1h' | '4h' | '1d';
/** Which plan depth applies: OI / volume / account history, funding history, liquidations. */
export type HistoryKind = 'history' | 'funding' | 'liquidations';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Bucket size in ms per interval. */
export const INTERVAL_MS: Readonly<Record<HistoryInterval, number>> = {
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '1h': HOUR,
  '4h': 4 * HOUR,
  '1d': DAY,
};

/** Default window length (before `to`) per interval when `from` is omitted. */
export const DEFAULT_SPAN_MS: Readonly<Record<HistoryInterval, number>> = {
  '5m': DAY,
  '15m': 3 * DAY,
  '1h': 7 * DAY,
  '4h': 30 * DAY,
  '1d': 365 * DAY,
};

export const DEFAULT_INTERVAL = '1h' as const;
/** At most this many buckets per history answer. */
export const MAX_BUCKETS = 10_000;

/** The effective window of one history request. */
export interface HistoryWindow {
  interval: HistoryInterval;
  bucketMs: number;
  /** effective start, epoch ms (inclusive) */
  from: number;
  /** effective end, epoch ms (exclusive) */
  to: number;
  /** the service clock at resolution */
  now: number;
  /** true when `from` was raised to the plan's depth */
  clamped: boolean;
}

/** The plan's depth in days for an endpoint kind; null = full history. */
export function depthDays(plan: PlanName, kind: HistoryKind): number | null {
  const p = getPlan(plan);
  if (kind === 'funding') return p.fundingHistoryDays;
  if (kind === 'liquidations') return p.liquidationLookbackDays;
  return p.historyDays;
}

/** Number of epoch-aligned buckets of size `bucketMs` that intersect [from, to) (from < to). */
export function bucketCount(from: number, to: number, bucketMs: number): number {
  return Math.floor((to - 1) / bucketMs) - Math.floor(from / bucketMs) + 1;
}

/** The SQL parameters every history query takes: $from, $to, $bucket_ms (epoch ms). */
export function windowParams(w: HistoryWindow): { from: number; to: number; bucket_ms: number } {
  return { from: w.from, to: w.to, bucket_ms: w.bucketMs };
}
