/**
 * The response cache's view of the clock (server/http/cache.ts): which routes' answers depend on
 * the plan's depth, and until when a clock-reading answer with an explicit window stays the same.
 */
import { DEFAULT_INTERVAL, DEFAULT_SPAN_MS, depthDays, type HistoryInterval, type HistoryKind } from './history-window.ts';
import { decodeCursor } from './liquidation-cursor.ts';
import { decodeFillCursor } from './routes/fills.ts';
import type { PlanName } from '../keys/plans.ts';
import { DAY_MS } from '../lib/time.ts';

type Query = Record<string, unknown>;


/** Routes whose answer depends on the plan's depth, and which depth. */
export const CLAMPED: Readonly<Record<string, HistoryKind>> = Object.fromEntries((['alpha', 'beta'] as const).flatMap((p) => [
  [`/v1/${p}/liquidations/search`, 'liquidations'],
  [`/v1/${p}/liquidations/history`, 'liquidations'],
  [`/v1/${p}/open-interest/history`, 'history'],
  [`/v1/${p}/volume/history`, 'history'],
  [`/v1/${p}/funding-rates/history`, 'funding'],
  [`/v1/${p}/accounts/:address/history`, 'history'],
  [`/v1/${p}/fills`, 'history'],
  [`/v1/${p}/prices/history`, 'history'],
]));

/** Whether `path` is a liquidation search route (its window comes from a cursor's filters). */
/** Whether `path` is a fills search route (cursor-paged as the liquidation search). */
export const isFillSearch = (path: string): boolean => path === '/v1/alpha/fills' || path === '/v1/beta/fills';
const isLiquidationSearch = (path: string): boolean => path === '/v1/alpha/liquidations/search' || path === '/v1/beta/liquidations/search';

/** The effective [from, to] a window route's answer covers, before clamping (null = defaulted). */
export function windowOf(path: string, q: Query): { from: number | null; to: number | null } {
  if (isLiquidationSearch(path) || isFillSearch(path)) {
    const filters = typeof q.cursor !== 'string' ? undefined
      : isFillSearch(path) ? decodeFillCursor(q.cursor)?.filters as { from: number | null; to: number | null } | undefined
        : decodeCursor(q.cursor)?.filters;
    const f = filters ?? { from: (q.from as number | undefined) ?? null, to: (q.to as number | undefined) ?? null };
    return { from: f.from, to: f.to };
  }
  const to = (q.to as number | undefined) ?? null;
  const interval = (q.interval as HistoryInterval | undefined) ?? DEFAULT_INTERVAL;
  const from = (q.from as number | undefined) ?? (to === null ? null : to - DEFAULT_SPAN_MS[interval]);
  return { from, to };
}

/**
 * Until when (epoch ms, inclusive) the answer of a clock-reading route stays the same as time
 * passes, or null when it does not (defaulted `to`, `to` in the future, a moving clamp).
 */
export function clockValidity(path: string, q: Query, plan: PlanName, now: number): number | null {
  const kind = CLAMPED[path];
  if (kind === undefined) return null;
  const days = depthDays(plan, kind);
  if (path.endsWith('/accounts/:address/history')) return days === null ? Infinity : null;
  const { from, to } = windowOf(path, q);
  if (to === null || to > now) return null;
  if (days === null) return Infinity;
  if (from === null || from < now - days * DAY_MS) return null;
  return from + days * DAY_MS;
}
