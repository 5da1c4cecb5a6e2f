/**
 * The liquidation search's cursor (GET /v1/{protocol}/liquidations/search): opaque base64url JSON
 * `{ v, t, s, f }`, the last row's time (epoch ms) and seq and the filters of the query that
 * produced it. Its own module because both the route and the response cache (./cache-clock.ts,
 * which reads a cursor's window) decode it, and the cache must not import routes.
 */
import * as v from 'valibot';
import { marketParam, marketVariantParam } from './params.ts';

/** The filters a cursor binds. */
export interface LiquidationFilters {
  market: string | null;
  market_variant: string | null;
  from: number | null;
  to: number | null;
}

export interface CursorState {
  time: number;
  seq: number;
  filters: LiquidationFilters;
}

/** Encodes a cursor (base64url of compact JSON). */
export function encodeCursor(state: CursorState): string {
  const f = state.filters;
  return Buffer.from(JSON.stringify({ v: 1, t: state.time, s: state.seq, f: [f.market, f.market_variant, f.from, f.to] })).toString('base64url');
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x);
const isStrOrNull = (x: unknown): x is string | null => x === null || typeof x === 'string';
const isIntOrNull = (x: unknown): x is number | null => x === null || isInt(x);

/** Decodes a cursor; undefined when it is not one of ours. */
export function decodeCursor(token: string): CursorState | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { v: version, t, s, f } = raw as Record<string, unknown>;
  if (version !== 1 || !isInt(t) || !isInt(s) || !Array.isArray(f) || f.length !== 4) return undefined;
  const [market, variant, from, to] = f as unknown[];
  if (!isStrOrNull(market) || !isStrOrNull(variant) || !isIntOrNull(from) || !isIntOrNull(to)) return undefined;
  // Only tokens whose filters would pass validation themselves.
  if (market !== null && v.safeParse(marketParam, market).output !== market) return undefined;
  if (variant !== null && !v.safeParse(marketVariantParam, variant).success) return undefined;
  return { time: t, seq: s, filters: { market, market_variant: variant, from, to } };
}
