/**
 * Account history, position detail and lifecycle timeline of one protocol:
 * `GET /v1/{protocol}/accounts/{address}/history` (an address's lifecycles, offset-paged),
 * `GET /v1/{protocol}/positions/{address}/{id}` (one lifecycle in detail) and
 * `GET /v1/{protocol}/positions/{address}/{id}/lifecycle` (its fill timeline, offset-paged).
 *
 * Sorts are validated enums that the SQL maps with CASE on bound parameters (never spliced), each
 * with a tie-breaker (15: position_id desc; 19: journal seq in the sort's direction), so offset pages
 * never repeat or skip a row. 15 omits lifecycles opened before the plan's history depth. 18 has no
 * 400 (a malformed address or id is a 404); on every endpoint a lifecycle of another address is a 404.
 * Alpha's 18 and 19 answer from the lifecycle store and the open-position set when they can
 * (server/read/lifecycles/lifecycle-answers.ts), 15 from the store and the closed lifecycles after its mark
 * (server/read/lifecycles/account-history.ts), else from DuckDB; both protocols alike, each with its own working sets.
 */
import * as v from 'valibot';
import { getRouterParam, type H3Event } from 'h3';
import { defineRoute, type RestRoute } from './define.ts';
import { notFound } from '../errors.ts';
import { limitParam, marketParam, marketVariantParam, noQuery, offsetParam, orderParam, pageOf, querySchema } from '../params.ts';
import { getPlan } from '../../keys/plans.ts';
import { address, count, described, integer, market, marketVariant, protocolId, side, timestamp, usd } from '../response-schemas/scalars.ts';
import { dataOf, pagedListOf } from '../response-schemas/envelopes.ts';
import type { Row } from '../../db/database.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { HistoryIndex } from '../../read/lifecycles/history-index.ts';
import { AccountsIndex } from '../../read/accounts/accounts-index.ts';
import { OpenPositionsIndex } from '../../read/open-positions/open-positions-index.ts';
import { LifecycleStore } from '../../read/lifecycles/lifecycle-store.ts';
import { positionFromStoreOrSet, timelineFromStoreOrSet } from '../../read/lifecycles/lifecycle-answers.ts';
import { AccountHistories } from '../../read/lifecycles/account-histories.ts';
import { ClosedTail } from '../../read/lifecycles/closed-tail.ts';
import { declareAddressFootprint } from '../../cache/footprint.ts';
import { DAY_MS } from '../../lib/time.ts';
import { BASE58_ADDRESS } from '../../lib/address.ts';

/** `GET /v1/alpha/positions/{address}/{id}`'s live fields of a lifecycle that is not open (sql/api/alpha-position-live.sql). */
const NO_LIVE = {
  current_size_usd: null,
  current_collateral_usd: null,
  unsettled_borrowing_usd: null,
  unsettled_funding_usd: null,
  claimable_funding_usd: null,
  mark_price: null,
  unrealized_pnl_usd: null,
  liquidation_price: null,
  updated_at: null,
} as const;

const POSITION_ID = /^\d{1,15}$/;

/** `sort_by` values of `GET /v1/alpha/accounts/{address}/history` (size = max_size_usd, pnl = net_pnl_usd, leverage = max_leverage). */
export const HISTORY_SORTS = ['opened_at', 'closed_at', 'size', 'pnl', 'leverage'] as const;
/** `sort_by` values of `GET /v1/alpha/positions/{address}/{id}/lifecycle` (time = fill time, size = |size_delta_usd|). */
export const LIFECYCLE_SORTS = ['time', 'size'] as const;
/** Fill-event types (they partition a lifecycle's timeline). */
export const EVENT_TYPES = ['open', 'increase', 'decrease', 'close', 'liquidation'] as const;

const historyQuery = querySchema({
  market: v.optional(marketParam),
  market_variant: v.optional(marketVariantParam),
  sort_by: v.optional(
    v.pipe(
      v.picklist(HISTORY_SORTS, `must be one of ${HISTORY_SORTS.join(', ')}`),
      v.description('Sort field (default opened_at; size = max_size_usd, pnl = net_pnl_usd, leverage = max_leverage); ties broken by position_id desc.'),
    ),
  ),
  order: v.optional(orderParam),
  offset: v.optional(offsetParam),
  limit: v.optional(limitParam),
});

const lifecycleQuery = querySchema({
  sort_by: v.optional(
    v.pipe(v.picklist(LIFECYCLE_SORTS, `must be one of ${LIFECYCLE_SORTS.join(', ')}`), v.description('Sort field (default time = fill time; size = |size_delta_usd|); ties broken by journal seq.')),
  ),
  order: v.optional(v.pipe(orderParam, v.description('Sort direction (default asc, chronological).'))),
  type: v.optional(v.pipe(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`), v.description('Only events of this type; the five types partition the timeline.'))),
  include_collateral_events: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.description('Include collateral-only events (size_delta_usd = 0); default false. Liquidations are always included.'),
      v.transform((s: 'true' | 'false') => s === 'true'),
    ),
  ),
  offset: v.optional(offsetParam),
  limit: v.optional(limitParam),
});

// ---- 200 bodies (OpenAPI is generated from these; strict, so an unlisted field fails the tests) ----

const nullableUsd = v.nullable(usd);
const nullablePrice = v.nullable(v.number());

const lifecycleEntries = {
  protocol: described(protocolId, 'Protocol identifier (alpha).'),
  position_id: described(v.nullable(integer), 'Lifecycle id, assigned once at ingest; selects exactly one open-to-close lifecycle.'),
  market_variant: described(marketVariant, 'Protocol-native variant id <INDEX>/USD[<collateral tokens>].'),
  market: described(market, 'Grouped market symbol <INDEX>-PERP.'),
  address: described(address, 'Owner wallet (base58).'),
  side: described(side, 'long or short.'),
  max_size_usd: described(nullableUsd, 'Largest notional the lifecycle reached, in USD.'),
  max_collateral_usd: described(nullableUsd, 'Largest collateral the lifecycle held, in USD.'),
  entry_price: described(v.number(), 'Size-weighted average price of the increases, in USD per index token.'),
  opened_at: described(timestamp, 'Time of the opening fill (UTC).'),
  closed_at: described(v.nullable(timestamp), 'Time of the terminal fill (UTC); null while open.'),
  exit_price: described(nullablePrice, 'Size-weighted average price of the decreases, in USD per index token; null while nothing was decreased.'),
  max_leverage: described(v.number(), 'Max over fills of size / collateral after the fill (5 = 5x).'),
  realized_pnl_usd: described(usd, "Sum of the fills' realized PnL before fees, in USD; negative = a loss."),
  fees_usd: described(usd, 'Trading fees paid, in USD (>= 0).'),
  liquidation_fees_usd: described(usd, 'Liquidation fees paid, in USD (>= 0).'),
  funding_fees_usd: described(usd, 'Funding paid, in USD (>= 0).'),
  borrowing_fees_usd: described(usd, 'Borrowing fees paid, in USD (>= 0).'),
  funding_earned_usd: described(usd, 'Funding received, in USD (>= 0).'),
  net_pnl_usd: described(usd, 'Realized − trading − borrowing − funding − liquidation fees + funding earned, in USD.'),
  fill_count: described(count, 'Fills of the lifecycle, collateral-only edits included.'),
  open_tx: described(v.string(), 'Signature of the opening transaction.'),
  close_tx: described(v.nullable(v.string()), 'Signature of the terminal transaction; null while open.'),
};

/** Position record, History-row shape (GET /v1/alpha/accounts/{address}/history). */
export const PositionHistoryRow = v.strictObject({
  ...lifecycleEntries,
  status: described(v.picklist(['closed', 'liquidated']), 'closed or liquidated (open lifecycles are not listed here).'),
});

/** Position record, Detail shape (GET /v1/alpha/positions/{address}/{id}); live fields are null unless open. */
export const PositionDetail = v.strictObject({
  ...lifecycleEntries,
  status: described(v.picklist(['open', 'closed', 'liquidated']), 'open, closed or liquidated.'),
  current_size_usd: described(nullableUsd, 'Notional now, in USD, from the latest snapshot; null unless open.'),
  current_collateral_usd: described(nullableUsd, 'Collateral now, before unsettled charges and credits, in USD; null unless open.'),
  unsettled_borrowing_usd: described(nullableUsd, 'Borrowing accrued since the last settlement and not yet deducted, in USD (>= 0); null unless open.'),
  unsettled_funding_usd: described(nullableUsd, 'Funding owed since the last settlement and not yet deducted, in USD (>= 0); null unless open.'),
  claimable_funding_usd: described(nullableUsd, 'Funding receivable accrued since the last settlement, in USD (>= 0); null unless open.'),
  mark_price: described(nullablePrice, 'Index price at the latest snapshot, in USD per index token; null unless open.'),
  unrealized_pnl_usd: described(nullableUsd, 'size × (mark / entry − 1), sign-flipped for shorts, in USD; null unless open.'),
  liquidation_price: described(nullablePrice, 'Estimated price at which the position is liquidated, in USD per index token; null when unavailable or not open.'),
  updated_at: described(v.nullable(timestamp), 'Time of the snapshot or fill the live fields come from (UTC); null unless open.'),
});

/** PositionEvent: one fill of a lifecycle (GET /v1/alpha/positions/{address}/{id}/lifecycle). */
export const PositionEvent = v.strictObject({
  time: described(timestamp, 'Fill execution time (UTC).'),
  type: described(v.picklist(EVENT_TYPES), 'open (first fill), increase, decrease, close (terminal) or liquidation (terminal).'),
  size_delta_usd: described(usd, 'Signed notional change, in USD: positive for an increase, negative for a decrease, close or liquidation; 0 for a collateral-only edit.'),
  position_size_usd: described(usd, 'Notional after the fill, in USD.'),
  collateral_delta_usd: described(usd, 'Signed collateral change, in USD: positive = collateral added.'),
  price: described(v.number(), 'Execution price, in USD per index token.'),
  entry_price: described(v.number(), 'Running size-weighted average entry price after the fill, in USD per index token.'),
  pnl_delta_usd: described(usd, 'Realized PnL of the fill before fees, in USD (0 when none); negative = a loss.'),
  fee_usd: described(usd, 'Trading fee, in USD; excludes borrowing, funding and liquidation charges.'),
  borrowing_fee_usd: described(nullableUsd, 'Borrowing fee settled on the fill, in USD; null when none settled.'),
  funding_fee_usd: described(nullableUsd, 'Funding fee settled on the fill, in USD; null when none settled.'),
  liquidation_fee_usd: described(nullableUsd, 'Liquidation fee, in USD; null when none.'),
  fee_total_usd: described(usd, 'All fee components of the fill, in USD.'),
  tx: described(v.string(), 'Transaction signature.'),
});

const accountNotFound = (protocol: Protocol) => notFound(`No ${protocol} account has this address.`);

/** The path's address, or a 404 when it cannot be one. */
function addressOf(event: H3Event, protocol: Protocol): string {
  const address = getRouterParam(event, 'address') ?? '';
  if (!BASE58_ADDRESS.test(address)) throw accountNotFound(protocol);
  return address;
}

const positionNotFound = (protocol: Protocol) => notFound(`This address has no ${protocol} position with this id.`);

/**
 * Whether a lifecycle row read by position_id alone (sql/api/alpha-position.sql, alpha-position-span.sql)
 * is a lifecycle of `protocol` and `address`. The SQL filters on the integer id only and leaves the
 * string comparisons to this check.
 */
function isLifecycleOf(row: Row | undefined, protocol: Protocol, address: string): row is Row {
  return row !== undefined && row.protocol === protocol && row.address === address;
}

/** The path's address and position id, or a 404 when either cannot be one. */
function positionOf(event: H3Event, protocol: Protocol): { address: string; id: number } {
  const address = getRouterParam(event, 'address') ?? '';
  const id = getRouterParam(event, 'id') ?? '';
  if (!BASE58_ADDRESS.test(address) || !POSITION_ID.test(id)) throw positionNotFound(protocol);
  return { address, id: Number(id) };
}

/**
 * The working sets the routes read before DuckDB, each of the routes' protocol (each defaults to a
 * new one, or the service's store of the protocol); null: none (DuckDB answers).
 */
export interface PositionParts {
  history?: HistoryIndex | null;
  accounts?: AccountsIndex;
  openPositions?: OpenPositionsIndex | null;
  /** null: none (every answer from DuckDB and the open-position set; tests compare the two) */
  lifecycles?: LifecycleStore | null;
  /** `GET /v1/alpha/accounts/{address}/history`'s closed lifecycles after the store's mark */
  closedTail?: ClosedTail;
}

/** GET /v1/{protocol}/accounts/:address/history, /v1/{protocol}/positions/:address/:id(/lifecycle). */
export function positionRoutes(service: Service, parts: PositionParts = {}, protocol: Protocol = 'alpha'): RestRoute[] {
  const {
    history: index = new HistoryIndex(service),
    accounts = new AccountsIndex(service, undefined, protocol),
    openPositions = new OpenPositionsIndex(service, protocol),
    lifecycles = LifecycleStore.of(service, protocol),
    closedTail = new ClosedTail(service, {}, protocol),
  } = parts;
  const histories = new AccountHistories(service, protocol, { history: index, accounts, lifecycles, closedTail });
  return [
    defineRoute({
      path: `/v1/${protocol}/accounts/:address/history`,
      cost: 5,
      cache: { depth: 'history', clockOnlyThroughDepth: true },
      summary: `Closed and liquidated lifecycles of one ${protocol} address (offset-paged), within the plan's history depth.`,
      query: historyQuery,
      response: pagedListOf(PositionHistoryRow),
      handle: async ({ event, query: q, key }) => {
        const address = addressOf(event, protocol);
        const { offset, limit } = pageOf(q);
        const days = key ? getPlan(key.plan).historyDays : null;
        const since = days === null ? null : service.now() - days * DAY_MS;
        const filters = {
          market: q.market ?? null,
          market_variant: q.market_variant ?? null,
          since,
          sort_by: q.sort_by ?? 'opened_at',
          order: q.order ?? 'desc',
          offset,
          limit,
        };
        // the address's closed lifecycles alone: an append without a fill of it keeps the answer cached
        declareAddressFootprint(event, protocol, address);
        const page = await histories.page(address, filters);
        if (page === null) throw accountNotFound(protocol);
        const { data, total } = page;
        return { data, pagination: { limit, offset, total } };
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/positions/:address/:id`,
      cost: 1,
      summary: `One ${protocol} lifecycle in detail; live mark, liquidation price and unrealized PnL while open (404 when unknown).`,
      query: noQuery,
      response: dataOf(PositionDetail),
      handle: async ({ event }) => {
        const { address, id } = positionOf(event, protocol);
        // a lifecycle that is no longer open has no live fields: its answer is a function of its fills
        const settled = (data: Row): Row => {
          if (data.status !== 'open') declareAddressFootprint(event, protocol, address);
          return data;
        };
        const quick = openPositions ? await positionFromStoreOrSet(service, lifecycles, openPositions, id, address, NO_LIVE) : undefined;
        if (quick === null) throw positionNotFound(protocol);
        if (quick) return { data: settled(quick) };
        // the record first; only an open lifecycle has live fields (NULL otherwise)
        for (let attempt = 0; ; attempt++) {
          const row = await service.db.queryOne('api/alpha-position', { id });
          if (!isLifecycleOf(row, protocol, address)) throw positionNotFound(protocol);
          const fromIndex = row.status !== 'open' ? NO_LIVE : openPositions ? await openPositions.live(id) : undefined;
          const live = fromIndex !== undefined ? fromIndex : await service.db.queryOne('api/alpha-position-live', { protocol, id });
          // closed by an append between the two reads: read again (a closed record has no live fields)
          if (!live && attempt === 0) continue;
          return { data: settled({ ...row, ...(live ?? NO_LIVE) }) };
        }
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/positions/:address/:id/lifecycle`,
      cost: 5,
      summary: `The fill timeline of one ${protocol} lifecycle (offset-paged); collateral-only events on request.`,
      query: lifecycleQuery,
      response: pagedListOf(PositionEvent),
      handle: async ({ event, query: q }) => {
        const { address, id } = positionOf(event, protocol);
        const { offset, limit } = pageOf(q);
        // the lifecycle's fills alone
        declareAddressFootprint(event, protocol, address);
        const filters = {
          type: q.type ?? null,
          include_collateral: q.include_collateral_events ?? false,
          sort_by: q.sort_by ?? 'time',
          order: q.order ?? 'asc',
          offset,
          limit,
        };
        const quick = openPositions ? await timelineFromStoreOrSet(service, lifecycles, openPositions, id, address, filters) : undefined;
        if (quick === null) throw positionNotFound(protocol);
        if (quick) return { data: quick.data, pagination: { limit, offset, total: quick.total } };
        // the lifecycle's seq range first: the timeline then reads only that range of fills
        const span = await service.db.queryOne('api/alpha-position-span', { id });
        if (!isLifecycleOf(span, protocol, address)) throw positionNotFound(protocol);
        const params = { id, first_seq: span.first_seq as number, last_seq: span.last_seq as number, ...filters };
        const rows = await service.db.query('api/alpha-position-lifecycle', params);
        // a page past the end has no row: the first page's first row carries the total
        const counted = rows.length || offset === 0 ? rows : await service.db.query('api/alpha-position-lifecycle', { ...params, offset: 0, limit: 1 });
        const total = (counted[0]?.total as number | undefined) ?? 0;
        const data = rows.map(({ total: _t, seq: _s, ...row }) => row);
        return { data, pagination: { limit, offset, total } };
      },
    }),
  ];
}
