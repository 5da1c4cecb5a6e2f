/**
 * The MCP tool catalog as data: one entry per tool, naming the REST route(s) it wraps (by path
 * pattern, per protocol where alpha and beta twins exist) and a description written for a model.
 * Input schemas are not written here: they are generated from the routes' valibot query schemas
 * (server/mcp/tool-schema.ts). Every REST route except the OpenAPI document is wrapped by exactly
 * one tool; test/mcp/mcp.test.ts fails when a route is added without one.
 */
import type { HistoryKind } from '../read/window.ts';

/** The REST path (h3 pattern) a tool calls, per protocol. */
export type ProtocolPaths = { alpha: string; beta?: string };

/** How a tool's REST body is summarized (server/mcp/summary.ts). */
export type BodyShape = 'list' | 'object' | 'paged' | 'cursor' | 'history';

/** One MCP tool wrapping REST routes. */
export interface RestTool {
  /** snake_case tool name */
  name: string;
  /** short human title */
  title: string;
  /** what it returns, units, limits, paging: for a model */
  description: string;
  /** one path for alpha-only tools; alpha + beta = an optional `protocol` argument (default alpha) */
  paths: ProtocolPaths;
  shape: BodyShape;
  /** what one row of `data` is, for the summary ("liquidation events") */
  noun: string;
  /** rows of a page when the call gives no `limit`, where the rows are wide (default: tools.ts TOOL_PAGE_ROWS) */
  pageRows?: number;
  /** the plan depth that may clamp this tool's window (history, funding, liquidations) */
  depth?: HistoryKind;
}

/** REST routes that no tool wraps, with the reason (the OpenAPI document is not data). */
export const UNWRAPPED_PATHS: readonly string[] = ['/v1/openapi.json'];

const UNITS = 'USD amounts are plain numbers in USD; timestamps are UTC ISO 8601 with milliseconds.';
const RATES = 'Rates are per hour and signed: positive = that side receives, negative = it pays (annualize: x 24 x 365).';
const OFFSET_PAGING =
  'Offset-paged: at most `limit` rows (1-500, default 25 for a tool call) starting at `offset`; `pagination.total` counts every match, ' +
  'so call again with offset + limit while offset + limit < total.';
const WINDOW =
  'Window [from, to): `to` defaults to now, `from` to 48 buckets of the interval before `to` for a tool call (5m: 4 hours, ' +
  '1h: 2 days, 1d: 48 days); at most 10,000 buckets. The answer echoes the effective `from`/`to`; ' +
  "`from` is raised to the plan's history depth when it reaches further back (the summary says so).";
const ALPHA = 'Protocol alpha (GMX-Solana) or beta (Jupiter Perps), by `protocol`; beta has no market variants (market_variant null, one row per market).';

/** Every tool that wraps REST routes, in listing order. */
export const REST_TOOLS: readonly RestTool[] = [
  {
    name: 'list_protocols',
    title: 'List protocols',
    shape: 'list',
    noun: 'protocols',
    paths: { alpha: '/v1/protocols' },
    description: 'The tracked perpetual-futures protocols: id (alpha = GMX-Solana, beta = Jupiter Perps), display name and chain (solana).',
  },
  {
    name: 'protocol_stats',
    title: 'Protocol overview',
    shape: 'list',
    noun: 'protocols',
    paths: { alpha: '/v1/protocols/stats' },
    description: `One row per protocol: current open interest (USD, long + short over all markets), trailing-24h traded notional, trading fees (excluding funding and borrowing) and liquidated notional (USD), and the number of active markets. ${UNITS}`,
  },
  {
    name: 'list_markets',
    title: 'List markets',
    shape: 'list',
    noun: 'market variants',
    paths: { alpha: '/v1/alpha/markets', beta: '/v1/beta/markets' },
    description:
      'The markets of a protocol. Each row is { market, market_variant }: `market` is a grouped symbol such as SOL-PERP (accepted as `market` by other tools, summing its variants); `market_variant` is the protocol-native collateral pool such as SOL/USD[WSOL-USDC] (null on beta). On alpha the answer also lists the distinct grouped symbols in `markets`.',
  },
  {
    name: 'market_stats',
    title: 'Market stats',
    shape: 'list',
    noun: 'markets',
    paths: { alpha: '/v1/alpha/markets/stats', beta: '/v1/beta/markets/stats' },
    description: `Per active market (alpha: per variant): oracle index price, open interest long and short (USD), current funding_rate_long / funding_rate_short, and trailing-24h volume, trading fees and liquidated notional (USD). ${RATES} On alpha the rate is the net of funding and borrowing; beta has no funding, so its rate is the negated borrow rate (always <= 0). ${UNITS}`,
  },
  {
    name: 'open_interest',
    title: 'Current open interest',
    shape: 'list',
    noun: 'variants',
    paths: { alpha: '/v1/alpha/open-interest', beta: '/v1/beta/open-interest' },
    description: `${ALPHA} Current open interest per market variant from its latest snapshot: long_usd, short_usd, total_usd and the snapshot time. Optional market_variant narrows to one variant (an unknown one is an error). ${UNITS}`,
  },
  {
    name: 'open_interest_history',
    title: 'Open interest history',
    shape: 'history',
    noun: 'buckets',
    depth: 'history',
    paths: { alpha: '/v1/alpha/open-interest/history', beta: '/v1/beta/open-interest/history' },
    description: `${ALPHA} Open interest (long_usd, short_usd, total_usd) at the end of each bucket, oldest first, carried forward so there are no gaps; \`market\` (e.g. SOL-PERP) sums its variants, omitted = protocol-wide. Interval 5m, 15m, 1h (default), 4h or 1d. ${WINDOW} Plan depth: 30 days (trial, starter), 90 (pro), full (premium). ${UNITS}`,
  },
  {
    name: 'volume_history',
    title: 'Volume history',
    shape: 'history',
    noun: 'buckets',
    depth: 'history',
    paths: { alpha: '/v1/alpha/volume/history', beta: '/v1/beta/volume/history' },
    description: `${ALPHA} Traded notional (volume_usd, liquidations excluded) and trading fees (fees_usd, excluding funding and borrowing) per bucket, oldest first; buckets without fills are omitted. \`market\` sums its variants, omitted = protocol-wide. Interval 5m, 15m, 1h (default), 4h or 1d. ${WINDOW} Plan depth: 30 days (trial, starter), 90 (pro), full (premium). ${UNITS}`,
  },
  {
    name: 'funding_rates',
    title: 'Current funding rates',
    shape: 'list',
    noun: 'variants',
    paths: { alpha: '/v1/alpha/funding-rates', beta: '/v1/beta/funding-rates' },
    description: `${ALPHA} Current net hourly funding rate per side (funding_rate_long, funding_rate_short; alpha: funding folded with borrowing; beta: the negated borrow rate, <= 0) per market variant (beta: per market), from its latest snapshot. ${RATES} Optional market_variant narrows to one variant.`,
  },
  {
    name: 'funding_rate_history',
    title: 'Funding rate history',
    shape: 'history',
    noun: 'buckets',
    depth: 'funding',
    paths: { alpha: '/v1/alpha/funding-rates/history', beta: '/v1/beta/funding-rates/history' },
    description: `${ALPHA} Average net hourly funding rate per side per bucket for ONE series: alpha takes market_variant (required, e.g. SOL/USD[WSOL-USDC]; there is no cross-variant aggregate), beta takes market (e.g. SOL-PERP; its rate is the negated hourly borrow rate, always <= 0), oldest first; buckets without a snapshot are omitted. Interval 1h (default), 4h or 1d. ${RATES} ${WINDOW} Plan depth: 30 days on every plan.`,
  },
  {
    name: 'search_liquidations',
    title: 'Search liquidations',
    shape: 'cursor',
    noun: 'liquidation events',
    depth: 'liquidations',
    paths: { alpha: '/v1/alpha/liquidations/search', beta: '/v1/beta/liquidations/search' },
    description: `${ALPHA} Liquidation events, newest first: time, position_id, market, market_variant, address, side, size_usd (notional at liquidation), collateral_usd, price, entry_price, pnl_usd (before fees), liquidation_fee_usd, tx. Filters: market, market_variant, from, to. Cursor-paged, up to \`limit\` (max 500) per page: when next_cursor is not null, call again with cursor = next_cursor (alone or with the same filters) for older events. The walk stops at the plan's lookback (7 days trial, 30 starter, 90 pro, full premium). ${UNITS}`,
  },
  {
    name: 'search_fills',
    title: 'Search fills',
    shape: 'cursor',
    noun: 'fills',
    depth: 'history',
    paths: { alpha: '/v1/alpha/fills', beta: '/v1/beta/fills' },
    description: `${ALPHA} Raw fills (trades) of the journal, newest first, each as the live stream sends it: seq, time, position_id, address, market, market_variant, side, type (open, increase, decrease, close, liquidation), size_delta_usd (signed), position_size_usd after it, collateral delta, price, entry_price, pnl_delta_usd (before fees), fee components, tx. Filters: address, market, market_variant (alpha), type, side, min_size_usd (|size_delta_usd|), from, to. Cursor-paged: when next_cursor is not null, call again with cursor = next_cursor for older fills. The walk stops at the plan's history depth (30 days trial/starter, 90 pro, full premium). ${UNITS}`,
  },
  {
    name: 'price_history',
    title: 'Price candles',
    shape: 'history',
    noun: 'candles',
    depth: 'history',
    paths: { alpha: '/v1/alpha/prices/history', beta: '/v1/beta/prices/history' },
    description: `${ALPHA} OHLC candles of one market's index (oracle) price: per bucket time, open, high, low, close (USD) and the number of observations, oldest first; buckets without an observation are omitted. \`market\` is required (e.g. SOL-PERP). From market snapshots where they exist, from the index price of fills before them. Interval 5m, 15m, 1h (default), 4h or 1d. ${WINDOW} Plan depth: 30 days (trial, starter), 90 (pro), full (premium).`,
  },
  {
    name: 'liquidation_history',
    title: 'Liquidation history',
    shape: 'history',
    noun: 'buckets',
    depth: 'liquidations',
    paths: { alpha: '/v1/alpha/liquidations/history', beta: '/v1/beta/liquidations/history' },
    description: `${ALPHA} Per bucket, oldest first: liquidation count, liquidated notional long_usd / short_usd / total_usd and liquidation fees_usd; buckets without liquidations are omitted. \`market\` sums its variants, omitted = protocol-wide. Interval 1h (default), 4h or 1d. ${WINDOW} Plan depth = liquidation lookback: 7 days (trial), 30 (starter), 90 (pro), full (premium). ${UNITS}`,
  },
  {
    name: 'accounts_summary',
    title: 'Accounts summary',
    shape: 'object',
    noun: 'summary',
    paths: { alpha: '/v1/alpha/accounts/stats', beta: '/v1/beta/accounts/stats' },
    description: `${ALPHA} Totals over every trader account: total_accounts, accounts_with_open_positions, total_positions_ever, total_active_positions, total_volume_usd, avg_net_pnl_usd, total_profits_usd / total_losses_usd (net PnL summed over winning / losing accounts), avg_win_rate (0-1). ${UNITS}`,
  },
  {
    name: 'search_accounts',
    title: 'Search and rank accounts',
    shape: 'paged',
    noun: 'accounts',
    pageRows: 15,
    paths: { alpha: '/v1/alpha/accounts/search', beta: '/v1/beta/accounts/search' },
    description: `${ALPHA} Rank trader accounts (leaderboards, whales): sort_by net_pnl (default), volume, win_rate, positions or current_notional (open notional), order desc (default) or asc; filters min_trades, has_active_positions, search (address prefix). Each row: address, trades, wins, losses, win_rate (0-1), volume_usd, net_pnl_usd (realized PnL net of fees), open_positions, open_notional_usd, fees and funding totals, leverage and size averages, markets traded. ${OFFSET_PAGING} ${UNITS}`,
  },
  {
    name: 'get_account',
    title: 'One account',
    shape: 'object',
    noun: 'account',
    paths: { alpha: '/v1/alpha/accounts/:address', beta: '/v1/beta/accounts/:address' },
    description: `${ALPHA} Lifetime statistics of one trader address (base58): trades, wins, losses, win_rate, volume_usd, net_pnl_usd, realized_pnl_usd (before fees), fees, funding paid and earned, borrowing and liquidation fees, leverage and position-size averages, open positions and their notional, first and last trade time, markets traded. Unknown address = not_found. ${UNITS}`,
  },
  {
    name: 'account_position_history',
    title: 'Account position history',
    shape: 'paged',
    noun: 'closed lifecycles',
    depth: 'history',
    pageRows: 15,
    paths: { alpha: '/v1/alpha/accounts/:address/history', beta: '/v1/beta/accounts/:address/history' },
    description: `${ALPHA} Closed and liquidated position lifecycles of one address (open ones: use search_open_positions with address): market, side, status, opened_at / closed_at, max size and collateral, entry and exit price, max_leverage, realized_pnl_usd (before fees), fees, net_pnl_usd, fill_count, position_id (for get_position / position_fills). sort_by opened_at (default), closed_at, size, pnl or leverage; order desc (default). Lifecycles opened before the plan's history depth (30 days trial/starter, 90 pro) are omitted. ${OFFSET_PAGING} ${UNITS}`,
  },
  {
    name: 'search_open_positions',
    title: 'Search open positions',
    shape: 'paged',
    noun: 'open positions',
    paths: { alpha: '/v1/alpha/open-positions/search', beta: '/v1/beta/open-positions/search' },
    description: `${ALPHA} Currently open positions across all accounts with live fields: current size and collateral (USD), entry and mark price, leverage, unrealized_pnl_usd, liquidation_price (estimate, may be null), unsettled borrowing/funding, updated_at. Filters: market, market_variant, address, side (long/short), min_size_usd. sort_by size (default), pnl, collateral, leverage, opened_at or liq_proximity (|mark - liquidation| / mark; with order=asc the closest to liquidation first; positions without a liquidation price are excluded). \`meta.oldest_updated\` tells how fresh the live fields are. ${OFFSET_PAGING} ${UNITS}`,
  },
  {
    name: 'open_positions_summary',
    title: 'Open positions summary',
    shape: 'object',
    noun: 'summary',
    paths: { alpha: '/v1/alpha/open-positions/stats', beta: '/v1/beta/open-positions/stats' },
    description: `${ALPHA} Summary of open positions, protocol-wide or for one \`market\` (summing its variants): total, long and short position counts, long/short notional (USD), long/short unrealized PnL (USD) and average leverage. ${UNITS}`,
  },
  {
    name: 'get_position',
    title: 'One position lifecycle',
    shape: 'object',
    noun: 'position',
    paths: { alpha: '/v1/alpha/positions/:address/:id', beta: '/v1/beta/positions/:address/:id' },
    description: `${ALPHA} One position lifecycle of an address by its integer position_id: status (open, closed, liquidated), size, collateral, entry/exit price, realized and net PnL, fees; while open also mark price, unrealized_pnl_usd and liquidation_price (estimate). Unknown address or id = not_found. ${UNITS}`,
  },
  {
    name: 'position_fills',
    title: 'Position fill timeline',
    shape: 'paged',
    noun: 'fills',
    paths: { alpha: '/v1/alpha/positions/:address/:id/lifecycle', beta: '/v1/beta/positions/:address/:id/lifecycle' },
    description: `${ALPHA} The fill timeline of one lifecycle: per fill time, type (open, increase, decrease, close, liquidation), size_delta_usd (signed: + increase, - decrease), position_size_usd after it, collateral delta, execution price, running entry price, pnl_delta_usd, fee components and tx. sort_by time (default) or size, order asc (default); filter by type; collateral-only edits (size_delta_usd = 0) only with include_collateral_events=true. ${OFFSET_PAGING} ${UNITS}`,
  },
];
