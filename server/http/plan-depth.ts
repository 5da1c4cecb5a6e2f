/**
 * Which plan depth clamps a REST route's window, and how that reads for each plan, for the
 * documents (the OpenAPI operations' descriptions, docs/api.md, the README's endpoint table).
 * The depth is the route's cache policy's (server/cache/policy.ts, the one place a route declares
 * it); the days are the plan table's (server/keys/plans.ts).
 */
import { PLAN_NAMES } from '../keys/plans.ts';
import { depthDays, type HistoryKind } from '../read/window.ts';
import type { RestRoute } from './routes/define.ts';

/** The plan depth that clamps a route, if any. */
export function planDepthOf(route: RestRoute): HistoryKind | undefined {
  return route.cache?.depth;
}

/** What each depth limits, in words. */
export const DEPTH_WORDS: Readonly<Record<HistoryKind, string>> = {
  history: 'history depth',
  funding: 'funding history depth',
  liquidations: 'liquidation lookback',
};

/** `trial 30 d, starter 30 d, pro 90 d, premium full, internal full` for a depth. */
export function depthByPlan(kind: HistoryKind): string {
  return PLAN_NAMES.map((plan) => {
    const days = depthDays(plan, kind);
    return `${plan} ${days === null ? 'full' : `${days} d`}`;
  }).join(', ');
}
