/**
 * GET /v1/{protocol}/fills: the journal's fills, newest first (time desc, then seq desc), each row
 * the stream's data-frame Fill, cursor-paged like the liquidation search and bounded by the plan's
 * history depth (as the history endpoints: 30 days trial and starter, 90 pro, full premium): the
 * walk ends early at that floor, with next_cursor null.
 *
 * The cursor is opaque base64url JSON `{ v, t, s, f }`: the last row's time (epoch µs) and seq, and
 * the query's filters. A request with a cursor takes its filters from it; repeating the same
 * filters is allowed, a different one (or a malformed token) is a 400 on `cursor`.
 *
 * Plan: newest first over every fill is a top-N over the whole journal, so a search first tries
 * windows that end at its upper bound and reach back {@link SPANS_MS}; when one fills the page no
 * older row can belong on it. An `address` narrows the window to its account's first and last fill
 * and reads `fills_by_address` (the fills in wallet order, zone maps on `address`) instead.
 */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { cursorWindow, type QueryWindow } from '../../cache/policy.ts';
import { EVENT_TYPES } from './positions.ts';
import { cursorListOf } from '../response-schemas/envelopes.ts';
import { FillRecord } from '../fill-record.ts';
import { ApiError } from '../errors.ts';
import { assertScopeKnown } from '../scope.ts';
import { limitParam, marketParam, marketVariantParam, MAX_LIMIT, minUsdParam, querySchema, timestampParam } from '../params.ts';
import { getPlan } from '../../keys/plans.ts';
import type { Row } from '../../db/database.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { Service } from '../../service.ts';
import { DAY_MS, HOUR_MS } from '../../lib/time.ts';
import { BASE58_ADDRESS, BASE58_ADDRESS_MESSAGE } from '../../lib/address.ts';

/** The windows tried before the unbounded search (see the file comment). */
const SPANS_MS = [HOUR_MS, DAY_MS, 30 * DAY_MS];

const addressParam = v.pipe(v.string('must be given once'), v.regex(BASE58_ADDRESS, BASE58_ADDRESS_MESSAGE), v.description('Only fills of positions owned by this wallet (base58).'));
const typeParam = v.pipe(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`), v.description('Only fills of this type: open, increase, decrease, close or liquidation.'));
const sideParam = v.pipe(v.picklist(['long', 'short'], 'must be long or short'), v.description('Only fills of positions on this side.'));
const cursorParam = v.pipe(
  v.string('must be given once'),
  v.regex(/^[A-Za-z0-9_-]{1,2048}$/, 'must be a next_cursor token returned by this endpoint'),
  v.description('Opaque token from a previous next_cursor; it carries the filters of the first page.'),
);

/** The query of the route (exported for the cursor's filter checks and the tests). */
export const fillsQuery = querySchema({
  address: v.optional(addressParam),
  market: v.optional(marketParam),
  market_variant: v.optional(v.pipe(marketVariantParam, v.description('One alpha variant (beta has none: any value is a 400).'))),
  type: v.optional(typeParam),
  side: v.optional(sideParam),
  min_size_usd: v.optional(minUsdParam('Only fills whose notional change |size_delta_usd| (USD) is at least this.')),
  from: v.optional(v.pipe(timestampParam, v.description("Inclusive window start (RFC 3339); raised to the plan's history depth."))),
  to: v.optional(v.pipe(timestampParam, v.description('Exclusive window end (RFC 3339); default now.'))),
  cursor: v.optional(cursorParam),
  limit: v.optional(limitParam),
});

/** The filters a cursor binds, in this order. */
const FILTERS = ['address', 'market', 'market_variant', 'type', 'side', 'min_size_usd', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string | number | null>;

export interface FillCursor {
  /** last row's time, epoch µs */
  time: number;
  seq: number;
  filters: Filters;
}

/** Encodes a cursor (base64url of compact JSON). */
export function encodeFillCursor(c: FillCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, t: c.time, s: c.seq, f: FILTERS.map((k) => c.filters[k]) })).toString('base64url');
}

/** Decodes a cursor; undefined unless it is one of ours whose filters would pass validation themselves. */
export function decodeFillCursor(token: string): FillCursor | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { v: version, t, s, f } = raw as Record<string, unknown>;
  if (version !== 1 || !Number.isSafeInteger(t) || !Number.isSafeInteger(s) || !Array.isArray(f) || f.length !== FILTERS.length) return undefined;
  const filters = {} as Filters;
  for (const [i, name] of FILTERS.entries()) {
    const value = f[i] as unknown;
    if (value === null) {
      filters[name] = null;
      continue;
    }
    if (name === 'min_size_usd' || name === 'from' || name === 'to') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
    } else {
      const schema = fillsQuery.entries[name].wrapped;
      if (typeof value !== 'string' || v.safeParse(schema, value).output !== value) return undefined;
    }
    filters[name] = value as string | number;
  }
  return { time: t as number, seq: s as number, filters };
}

const badCursor = (message = "Parameter 'cursor' must be a next_cursor token returned by this endpoint."): ApiError => new ApiError(400, 'invalid_parameter', message, 'cursor');

/** GET /v1/{protocol}/fills. */
export function fillRoutes(service: Service, protocol: Protocol): RestRoute[] {
  return [
    defineRoute({
      path: `/v1/${protocol}/fills`,
      cost: 5,
      cache: { depth: 'history', window: cursorWindow((token) => decodeFillCursor(token)?.filters as QueryWindow | undefined), timeBound: 'instant' },
      summary: `${protocol === 'alpha' ? 'Alpha' : 'Beta'} fills (the stream's Fill frames), newest first, cursor-paged; filtered by wallet, market, type, side, size and window; the walk stops at the plan's history depth.`,
      response: cursorListOf(FillRecord),
      query: fillsQuery,
      handle: async ({ query: q, key }) => {
        // the clock before the first await (the response cache attributes it to this request there)
        const now = service.now();
        let filters: Filters = Object.fromEntries(FILTERS.map((k) => [k, q[k] ?? null])) as Filters;
        let after: { time: number; seq: number } | null = null;
        if (q.cursor !== undefined) {
          const state = decodeFillCursor(q.cursor);
          if (!state) throw badCursor();
          for (const name of FILTERS) {
            if (filters[name] !== null && filters[name] !== state.filters[name]) {
              throw badCursor(`Parameter 'cursor' was issued for other filters than '${name}' given here: pass the cursor alone, or with the same filters.`);
            }
          }
          filters = state.filters;
          after = { time: state.time, seq: state.seq };
        }
        await assertScopeKnown(service, protocol, {
          market: (filters.market as string | null) ?? undefined,
          market_variant: (filters.market_variant as string | null) ?? undefined,
        });
        if (filters.from !== null && filters.to !== null && (filters.from as number) >= (filters.to as number)) {
          throw new ApiError(400, 'invalid_parameter', "Parameter 'from' must be before 'to'.", 'from');
        }
        const days = key ? getPlan(key.plan).historyDays : null;
        const floor = days === null ? null : now - days * DAY_MS;
        const from = floor === null ? (filters.from as number | null) : Math.max((filters.from as number | null) ?? floor, floor);
        const to = (filters.to as number | null) ?? now;
        if (from !== null && from >= to) throw new ApiError(400, 'invalid_parameter', "Parameter 'to' lies before the plan's history depth.", 'to');
        const limit = q.limit ?? MAX_LIMIT;
        // a wallet's fills lie between its first and last fill (its account's): no account, no fill
        let lo = from ?? 0;
        let hi = to;
        if (filters.address !== null) {
          const span = await service.db.queryOne('api/fills-address-span', { protocol, address: filters.address });
          if (!span) return { data: [], next_cursor: null };
          lo = Math.max(lo, span.first_ms as number);
          hi = Math.min(hi, (span.last_ms as number) + 1);
        }
        const params = {
          protocol,
          ...filters,
          from: lo,
          to: hi,
          after_us: after?.time ?? hi * 1000,
          after_seq: after?.seq ?? Number.MAX_SAFE_INTEGER,
          fetch: limit + 1,
        };
        let rows: Row[] | null = lo >= hi ? [] : null;
        // a wallet's fills are a few row groups of fills_by_address: one top-N over them
        if (rows === null && filters.address !== null) rows = await service.db.query('api/fills-search-address', params);
        // every match is older than `top` (exclusive, epoch ms)
        const top = Math.min(hi, after ? Math.floor(after.time / 1000) + 1 : Infinity);
        for (const reach of rows === null ? SPANS_MS : []) {
          const lower = top - reach;
          if (lower <= lo) break;
          rows = await service.db.query('api/fills-search', { ...params, from: lower });
          if (rows.length === params.fetch) break;
          rows = null;
        }
        rows ??= await service.db.query('api/fills-search', params);
        const more = rows.length > limit;
        const page = rows.slice(0, limit);
        const last = page[page.length - 1];
        const next_cursor = more && last ? encodeFillCursor({ time: last.time_us as number, seq: last.seq as number, filters }) : null;
        return { data: page.map(({ time_us: _t, ...row }) => row), next_cursor };
      },
    }),
  ];
}
