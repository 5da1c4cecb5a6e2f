/**
 * Which plan depth clamps a REST route's window, and how that reads for each plan, for the
 * documents (the OpenAPI operations' descriptions, docs/api.md, the README's endpoint table).
 * The route → depth pairing is the MCP catalog's (server/mcp/catalog.ts, which summarizes clamped
 * windows with it); the days are the plan table's (server/keys/plans.ts).
 */
import { REST_TOOLS } from '../mcp/catalog.ts';
import { PLAN_NAMES } from '../keys/plans.ts';
import { depthDays, type HistoryKind } from '../read/window.ts';

const DEPTH_OF = new Map<string, HistoryKind>(
  REST_TOOLS.flatMap((tool) => (tool.depth === undefined ? [] : [tool.paths.alpha, tool.paths.beta]
    .filter((p): p is string => p !== undefined)
    .map((p) => [p, tool.depth!] as [string, HistoryKind]))),
);

/** The plan depth that clamps a route (h3 path), if any. */
export function planDepthOf(path: string): HistoryKind | undefined {
  return DEPTH_OF.get(path);
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
