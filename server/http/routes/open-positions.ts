/**
 * `GET /v1/alpha/open-positions/search` and `GET /v1/alpha/open-positions/stats` of one protocol: open
 * positions (offset-paged search with live fields) and their summary (PositionsSummary), both over the
 * same rows (sql/api/alpha-open-positions-*.sql).
 *
 * A row's live fields come from the lifecycle's latest position snapshot when it is at least as new
 * as the lifecycle's last fill; otherwise (no snapshot yet, or a newer fill) from the state after
 * that fill: its size and collateral, unsettled amounts 0 (fees settle on every fill), mark = the
 * variant's latest market index price if not older than the fill (else the fill's index price),
 * no liquidation price, `updated_at` = the fill's time.
 *
 * Search sorts by a validated enum that the SQL maps with CASE on a bound parameter (never
 * spliced), then address asc, then position_id desc, so offset pages never repeat or skip a row.
 * `meta` is computed over every matching row, not the page. An unknown (well-formed) `market` or
 * `market_variant` is a 400 `invalid_parameter`, as on the history endpoints; an address with no
 * open position is simply an empty result.
 */
import * as v from 'valibot';
import { assertScopeKnown } from '../scope.ts';
import { defineRoute, type RestRoute } from './define.ts';
import { limitParam, marketParam, marketVariantParam, minUsdParam, offsetParam, orderParam, pageOf, querySchema } from '../params.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { OpenPositionsIndex } from '../../read/open-positions/open-positions-index.ts';
import { Pagination } from '../response-schemas/pagination.ts';
import { address, count, described, market, marketVariant, protocolId, side, timestamp, usd } from '../response-schemas/scalars.ts';
import { dataOf } from '../response-schemas/envelopes.ts';
import { BASE58_ADDRESS, BASE58_ADDRESS_MESSAGE } from '../../lib/address.ts';

/** `sort_by` values of `GET /v1/alpha/open-positions/search` (size = current_size_usd, pnl = unrealized_pnl_usd). */
export const OPEN_POSITION_SORTS = ['size', 'pnl', 'collateral', 'leverage', 'opened_at', 'liq_proximity'] as const;

const minSizeParam = minUsdParam('Only positions whose current notional (USD) is at least this.');

const searchQuery = querySchema({
  market_variant: v.optional(marketVariantParam),
  market: v.optional(marketParam),
  address: v.optional(v.pipe(v.string('must be given once'), v.regex(BASE58_ADDRESS, BASE58_ADDRESS_MESSAGE), v.description('Owner wallet (base58).'))),
  side: v.optional(v.pipe(v.picklist(['long', 'short'], 'must be long or short'), v.description('Position side.'))),
  min_size_usd: v.optional(minSizeParam),
  sort_by: v.optional(
    v.pipe(
      v.picklist(OPEN_POSITION_SORTS, `must be one of ${OPEN_POSITION_SORTS.join(', ')}`),
      v.description(
        'Sort field (default size = current notional; pnl = unrealized PnL; liq_proximity = |mark − liquidation| / mark, ' +
          'asc = closest to liquidation first, positions without a liquidation price excluded); ' +
          'ties broken by address asc, then position_id desc.',
      ),
    ),
  ),
  order: v.optional(orderParam),
  offset: v.optional(offsetParam),
  limit: v.optional(limitParam),
});

const statsQuery = querySchema({ market: v.optional(marketParam) });

const nullableUsd = v.nullable(usd);
const nullableTime = v.nullable(timestamp);

/** Open-search row of the Position record. */
export const openPositionRowSchema = v.strictObject({
  protocol: described(protocolId, 'Protocol identifier (alpha or beta).'),
  position_id: described(v.number(), 'Lifecycle id (see /v1/{protocol}/positions/{address}/{id}).'),
  market_variant: described(marketVariant, 'Protocol-native variant id <INDEX>/USD[<collateral tokens>] (alpha); null for beta, which has one row per market.'),
  market: described(market, 'Grouped market symbol <INDEX>-PERP.'),
  address: described(address, 'Owner wallet (base58).'),
  side: described(side, 'long or short.'),
  current_size_usd: described(nullableUsd, 'Notional now, in USD (sort key size).'),
  max_size_usd: described(nullableUsd, 'Largest notional the lifecycle reached, in USD.'),
  current_collateral_usd: described(nullableUsd, 'Collateral now, before unsettled charges and credits, in USD (sort key collateral).'),
  max_collateral_usd: described(nullableUsd, 'Largest collateral the lifecycle held, in USD.'),
  unsettled_borrowing_usd: described(nullableUsd, 'Borrowing accrued since the last settlement and not yet deducted, in USD (>= 0).'),
  unsettled_funding_usd: described(nullableUsd, 'Funding owed since the last settlement and not yet deducted, in USD (>= 0).'),
  claimable_funding_usd: described(nullableUsd, 'Funding receivable accrued since the last settlement, in USD (>= 0).'),
  entry_price: described(v.number(), 'Size-weighted average entry price, in USD per index token.'),
  leverage: described(v.nullable(v.number()), 'Current notional / current collateral at the latest update (5 = 5x); null when the collateral is 0.'),
  opened_at: described(timestamp, 'Time of the opening fill (UTC).'),
  mark_price: described(v.nullable(v.number()), 'Index price at the latest update, in USD per index token.'),
  unrealized_pnl_usd: described(nullableUsd, 'size × (mark / entry − 1), sign-flipped for shorts, in USD (sort key pnl).'),
  liquidation_price: described(v.nullable(v.number()), 'Estimated liquidation price, in USD per index token; null when not computable.'),
  updated_at: described(nullableTime, 'Time of the snapshot or fill the live fields come from (UTC).'),
});

const searchResponse = v.strictObject({
  data: described(v.array(openPositionRowSchema), 'This page of open positions.'),
  pagination: Pagination,
  meta: described(
    v.strictObject({
      oldest_updated: described(nullableTime, 'Oldest updated_at over every matching position, not just the page (UTC); null when none match.'),
      last_full_refresh: described(nullableTime, 'Most recent full re-mark (poll) represented in the set (UTC); null when no row comes from a poll.'),
    }),
    'Freshness of the whole result.',
  ),
});

/** PositionsSummary. */
export const positionsSummarySchema = v.strictObject({
  market: described(v.nullable(v.string()), 'The market asked for; null for the protocol-wide aggregate.'),
  snapshot_ts: described(nullableTime, 'Time of the newest snapshot in the set (UTC); null when no position is open.'),
  total_positions: described(count, 'Open positions.'),
  long_positions: described(count, 'Open longs.'),
  short_positions: described(count, 'Open shorts.'),
  long_notional_usd: described(usd, 'Notional of open longs, in USD.'),
  short_notional_usd: described(usd, 'Notional of open shorts, in USD.'),
  long_upnl_usd: described(usd, 'Unrealized PnL of open longs, in USD; negative = a loss.'),
  short_upnl_usd: described(usd, 'Unrealized PnL of open shorts, in USD; negative = a loss.'),
  avg_leverage: described(v.number(), "Plain mean of the open positions' leverage (0 when none)."),
});

const statsResponse = dataOf(positionsSummarySchema);

/**
 * GET /v1/{protocol}/open-positions/search, /open-positions/stats. Both answer from `index` (the
 * protocol's open positions in memory, ../open-positions-index.ts) when it can, else (or `index` null) from their SQL.
 */
export function openPositionRoutes(service: Service, protocol: Protocol, index: OpenPositionsIndex | null): RestRoute[] {
  return [
    defineRoute({
      path: `/v1/${protocol}/open-positions/search`,
      cost: 5,
      summary: `Open ${protocol} positions with live mark, unrealized PnL and liquidation price (offset-paged).`,
      query: searchQuery,
      response: searchResponse,
      handle: async ({ query: q }) => {
        await assertScopeKnown(service, protocol, q);
        const { offset, limit } = pageOf(q);
        const search = {
          market_variant: q.market_variant ?? null,
          market: q.market ?? null,
          address: q.address ?? null,
          side: q.side ?? null,
          min_size_usd: q.min_size_usd ?? null,
          sort_by: q.sort_by ?? 'size',
          order: q.order ?? 'desc',
          offset,
          limit,
        };
        const found = index ? await index.search(search) : null;
        if (found) return { data: found.data, pagination: { limit, offset, total: found.total }, meta: found.meta };
        const rows = await service.db.query('api/alpha-open-positions-search', { ...search, protocol });
        const first = rows[0];
        const total = (first?.total as number | undefined) ?? 0;
        const meta = {
          oldest_updated: (first?.oldest_updated as string | null | undefined) ?? null,
          last_full_refresh: (first?.last_full_refresh as string | null | undefined) ?? null,
        };
        const data = rows.filter((r) => r.position_id !== null).map(({ total: _t, oldest_updated: _o, last_full_refresh: _l, ...row }) => row);
        return { data, pagination: { limit, offset, total }, meta };
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/open-positions/stats`,
      cost: 1,
      summary: `Summary of open ${protocol} positions (counts, notional and unrealized PnL by side, mean leverage), per market or protocol-wide.`,
      query: statsQuery,
      response: statsResponse,
      handle: async ({ query: q }) => {
        await assertScopeKnown(service, protocol, q);
        const market = q.market ?? null;
        // its SQL costs ~10 ms a run on the bench journal, nearly all DuckDB's own work per query on
        // that join plan, not the few thousand rows (docs/performance.md, "Read path"); the set, when loaded, ~0.1
        const summary = index ? index.summary(market) : null;
        return { data: summary ?? (await service.db.queryOne('api/alpha-open-positions-stats', { market, protocol })) };
      },
    }),
  ];
}
