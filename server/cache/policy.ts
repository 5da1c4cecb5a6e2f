/**
 * How the response cache treats one route's answers: a field of the route's definition
 * (server/http/routes/define.ts), so the cache holds no list of paths and knows no route.
 * A route without a policy has answers that depend on neither the plan's depth nor a window.
 */
import type { HistoryKind } from '../read/window.ts';

type Query = Record<string, unknown>;

/** The effective [from, to] a window answer covers, before clamping (epoch ms; null = defaulted). */
export interface QueryWindow {
  from: number | null;
  to: number | null;
}

export interface CachePolicy {
  /** the plan depth that clamps the route's window: its entries are keyed by that depth */
  depth?: HistoryKind;
  /** the window the answer covers; default: the query's `interval`, `from` and `to` (server/cache/clock.ts) */
  window?: (query: Query) => QueryWindow;
  /**
   * what an explicit `to` bounds (server/cache/footprint.ts): `bucket`, the answer reads fills and
   * market snapshots up to the end of the bucket holding `to`; `instant`, up to the instant after it
   */
  timeBound?: 'bucket' | 'instant';
  /** the answer reads the clock only through the plan's depth (an account's whole history) */
  clockOnlyThroughDepth?: boolean;
}

/**
 * The window of a cursor-paged search: the filters a valid cursor carries (it keeps the first
 * page's), else the query's own `from` and `to`.
 */
export function cursorWindow(decode: (token: string) => QueryWindow | undefined): (query: Query) => QueryWindow {
  return (q) => {
    const filters = typeof q.cursor !== 'string' ? undefined : decode(q.cursor);
    const f = filters ?? { from: (q.from as number | undefined) ?? null, to: (q.to as number | undefined) ?? null };
    return { from: f.from, to: f.to };
  };
}
