/**
 * The response cache's view of the clock (server/cache/response-cache.ts): which routes' answers depend on
 * the plan's depth, and until when a clock-reading answer with an explicit window stays the same.
 */
import { DEFAULT_INTERVAL, DEFAULT_SPAN_MS, depthDays, type HistoryInterval } from '../read/window.ts';
import type { PlanName } from '../keys/plans.ts';
import type { CachePolicy, QueryWindow } from './policy.ts';
import { DAY_MS } from '../lib/time.ts';

type Query = Record<string, unknown>;

/** The effective [from, to] a window route's answer covers, before clamping (null = defaulted). */
export function windowOf(policy: CachePolicy | undefined, q: Query): QueryWindow {
  if (policy?.window) return policy.window(q);
  const to = (q.to as number | undefined) ?? null;
  const interval = (q.interval as HistoryInterval | undefined) ?? DEFAULT_INTERVAL;
  const from = (q.from as number | undefined) ?? (to === null ? null : to - DEFAULT_SPAN_MS[interval]);
  return { from, to };
}

/**
 * Until when (epoch ms, inclusive) the answer of a clock-reading route stays the same as time
 * passes, or null when it does not (defaulted `to`, `to` in the future, a moving clamp).
 */
export function clockValidity(policy: CachePolicy | undefined, q: Query, plan: PlanName, now: number): number | null {
  const kind = policy?.depth;
  if (kind === undefined) return null;
  const days = depthDays(plan, kind);
  if (policy!.clockOnlyThroughDepth) return days === null ? Infinity : null;
  const { from, to } = windowOf(policy, q);
  if (to === null || to > now) return null;
  if (days === null) return Infinity;
  if (from === null || from < now - days * DAY_MS) return null;
  return from + days * DAY_MS;
}
