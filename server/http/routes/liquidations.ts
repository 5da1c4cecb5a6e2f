/**
 * `GET /v1/alpha/liquidations/search`: liquidation search of one protocol, newest first, cursor-paged
 * and bounded by the plan's liquidation lookback (contract §3, §5).
 *
 * The cursor is opaque base64url JSON `{ v, t, s, f }`: the last row's time (epoch ms) and seq, and
 * the filters of the query that produced it (market, market_variant, from, to). A request with a
 * cursor takes its filters from the cursor; repeating the same filters is allowed, any different
 * filter (or a malformed token) is a 400 `invalid_parameter` on `cursor`. `limit` may change
 * between pages (it is not a filter).
 *
 * Plan: each protocol's events are searched in memory (../liquidation-index.ts, one per protocol)
 * once it has loaded; before that, from SQL.
 * Until then, SQL: newest first over every liquidation is a top-N over the whole table; the search
 * first tries a window that ends at the newest liquidation the service has (tracked from appends)
 * and reaches back {@link SEARCH_SPANS_MS}: when that window already fills the page, no older row
 * can belong on it (the order is time desc), so the answer is the same; otherwise the next span,
 * and finally the given bounds alone.
 */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { cursorWindow } from '../../cache/policy.ts';
import { Liquidation } from '../response-schemas/liquidations.ts';
import { cursorListOf } from '../response-schemas/envelopes.ts';
import { ApiError } from '../errors.ts';
import { limitParam, marketParam, marketVariantParam, MAX_LIMIT, querySchema, timestampParam } from '../params.ts';
import { getPlan } from '../../keys/plans.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { declareValidUntil } from '../../cache/answer-declarations.ts';
import { LiquidationIndex, servedOf, type ServedLiquidation } from '../../read/liquidations/liquidation-index.ts';
import { JsonBody } from '../../cache/json-body.ts';
import { decodeCursor, encodeCursor, type LiquidationFilters } from '../liquidation-cursor.ts';
import { DAY_MS } from '../../lib/time.ts';

/** The windows tried before the unbounded search (see the file comment). */
const SEARCH_SPANS_MS = [7 * DAY_MS, 60 * DAY_MS];

/**
 * The newest liquidation time of `protocol` (epoch ms, -Infinity when none): read once, then kept by
 * the append path's listener (the max only grows: journaled fills never change).
 */
function newestLiquidation(service: Service, protocol: Protocol): () => Promise<number> {
  let known = -Infinity;
  service.onAppend((fills) => {
    for (const f of fills) if (f.protocol === protocol && f.type === 'liquidation' && f.time > known) known = f.time;
  });
  let loaded: Promise<void> | undefined;
  return async () => {
    loaded ??= service.db.queryOne('api/alpha-liquidations-newest', { protocol }).then((row) => {
      const t = row?.time_ms;
      if (typeof t === 'number' && t > known) known = t;
    });
    await loaded;
    return known;
  };
}

/**
 * Until when (epoch ms, inclusive) a search with a defaulted `to` (= now) keeps its answer as the
 * clock moves on (server/cache/response-cache.ts): the rows are those with time < now and, under a plan
 * lookback, >= now - lookback. A liquidation enters only if one exists at or after `now` (the
 * newest one the service has, `newest`, tells whether any does: then no bound is claimed); a fetched row
 * (the page plus the one that tells whether more exist) leaves when the floor passes its time,
 * the oldest first.
 */
function defaultedWindowValidUntil(now: number, newest: number, days: number | null, fetched: readonly ServedLiquidation[]): number {
  if (newest >= now) return -Infinity;
  if (days === null || fetched.length === 0) return Infinity;
  return fetched[fetched.length - 1]!.time_ms + days * DAY_MS;
}

const PAGE_HEAD = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');

/**
 * The answer `{ data, next_cursor }` as JSON bytes, copied from the rows' own (exactly the UTF-8 of
 * JSON.stringify of the object: test/read/liquidations/liquidation-index.test.ts): one allocation, no string.
 */
export function pageBody(page: readonly ServedLiquidation[], next_cursor: string | null): JsonBody {
  const tail = Buffer.from(`],"next_cursor":${JSON.stringify(next_cursor)}}`);
  const parts: Buffer[] = [PAGE_HEAD];
  for (let i = 0; i < page.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(page[i]!.json);
  }
  parts.push(tail);
  return new JsonBody(Buffer.concat(parts));
}

const cursorParam = v.pipe(
  v.string('must be given once'),
  v.regex(/^[A-Za-z0-9_-]{1,1024}$/, 'must be a next_cursor token returned by this endpoint'),
  v.description('Opaque token from a previous next_cursor; it carries the filters of the first page.'),
);

const query = querySchema({
  market: v.optional(marketParam),
  market_variant: v.optional(marketVariantParam),
  from: v.optional(timestampParam),
  to: v.optional(timestampParam),
  cursor: v.optional(cursorParam),
  limit: v.optional(limitParam),
});

function badCursor(message = "Parameter 'cursor' must be a next_cursor token returned by this endpoint."): ApiError {
  return new ApiError(400, 'invalid_parameter', message, 'cursor');
}

/**
 * GET /v1/{protocol}/liquidations/search: from `index` (the protocol's events in memory,
 * ../liquidation-index.ts) once it has loaded, else (or `index` null) from SQL.
 */
export function liquidationRoutes(service: Service, protocol: Protocol, index: LiquidationIndex | null): RestRoute[] {
  const newest = newestLiquidation(service, protocol);
  return [
    defineRoute({
      path: `/v1/${protocol}/liquidations/search`,
      cost: 5,
      cache: { depth: 'liquidations', window: cursorWindow((token) => decodeCursor(token)?.filters), timeBound: 'instant' },
      summary: `${protocol === 'alpha' ? 'Alpha' : 'Beta'} liquidation events, newest first, cursor-paged; the walk stops at the plan's lookback.`,
      response: cursorListOf(Liquidation),
      query,
      handle: async ({ event, query: q, key }) => {
        const given: LiquidationFilters = {
          market: q.market ?? null,
          market_variant: q.market_variant ?? null,
          from: q.from ?? null,
          to: q.to ?? null,
        };
        let filters = given;
        let after: { time: number; seq: number } | null = null;
        if (q.cursor !== undefined) {
          const state = decodeCursor(q.cursor);
          if (!state) throw badCursor();
          for (const name of ['market', 'market_variant', 'from', 'to'] as const) {
            if (given[name] !== null && given[name] !== state.filters[name]) {
              throw badCursor(`Parameter 'cursor' was issued for other filters than '${name}' given here: pass the cursor alone, or with the same filters.`);
            }
          }
          filters = state.filters;
          after = { time: state.time, seq: state.seq };
        }
        if (filters.from !== null && filters.to !== null && filters.from >= filters.to) {
          throw new ApiError(400, 'invalid_parameter', "Parameter 'from' must be before 'to'.", 'from');
        }
        const now = service.now();
        const days = key ? getPlan(key.plan).liquidationLookbackDays : null;
        const floor = days === null ? null : now - days * DAY_MS;
        const from = floor === null ? filters.from : Math.max(filters.from ?? floor, floor);
        const limit = q.limit ?? MAX_LIMIT;
        const to = filters.to ?? now;
        const params = {
          market: filters.market,
          market_variant: filters.market_variant,
          from,
          to,
          after_time: after?.time ?? null,
          after_seq: after?.seq ?? null,
          fetch: limit + 1,
          protocol,
        };
        let rows: readonly ServedLiquidation[] | null = index ? await index.search(params) : null;
        // every match is older than `top` (exclusive)
        const latest = (rows !== null ? index!.newestTime() : null) ?? (await newest());
        const top = Math.min(to, after ? after.time + 1 : Infinity, latest + 1);
        for (const span of rows === null && Number.isFinite(top) ? SEARCH_SPANS_MS : []) {
          const lower = top - span;
          if (from !== null && lower <= from) break;
          rows = (await service.db.query('api/alpha-liquidations-search', { ...params, from: lower })).map(servedOf);
          if (rows.length === params.fetch) break;
          rows = null;
        }
        rows ??= (await service.db.query('api/alpha-liquidations-search', params)).map(servedOf);
        const more = rows.length > limit;
        const page = rows.slice(0, limit);
        const last = page[page.length - 1];
        const next_cursor = more && last ? encodeCursor({ time: last.time_ms, seq: last.seq, filters }) : null;
        if (filters.to === null) declareValidUntil(event, defaultedWindowValidUntil(now, latest, days, rows));
        return pageBody(page, next_cursor);
      },
    }),
  ];
}
