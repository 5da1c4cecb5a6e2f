/**
 * valibot schemas of the 200 bodies (and of the error body), shared by the route files: the
 * OpenAPI document (openapi.ts) is generated from them with `@valibot/to-json-schema`, and
 * test/http/openapi.test.ts validates real responses against that document.
 *
 * Conventions:
 * - Every object is a `v.strictObject` (the JSON Schema says `additionalProperties: false`), so a
 *   field added to a SQL file without a schema change fails the test.
 * - Only JSON-Schema-expressible pieces (no transforms): the schemas describe, they do not parse.
 * - Named records (Market, Account, …) are listed in {@link RESPONSE_DEFINITIONS}: the document
 *   puts them under `components/schemas` and refers to them by `$ref`.
 */
import * as v from 'valibot';
import { COARSE_INTERVALS, FINE_INTERVALS, MAX_LIMIT } from './params.ts';
import type { ErrorCode } from './errors.ts';

// ---------------------------------------------------------------------------------------------
// Scalars

/** Output timestamp: `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC, always 3 fraction digits; contract §1). */
export const timestamp = v.pipe(
  v.string(),
  v.isoTimestamp(),
  v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
  v.description('UTC timestamp with milliseconds, YYYY-MM-DDTHH:MM:SS.sssZ.'),
);
/** A JSON integer. */
export const integer = v.pipe(v.number(), v.integer());
/** A non-negative JSON integer (counts). */
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A USD amount (rounded to 6 decimals). */
export const usd = v.number();
/** A non-negative USD amount (notional, volume, fees). */
export const usdNonNegative = v.pipe(v.number(), v.minValue(0));
/** A ratio from 0 to 1 (win rates). */
export const ratio = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
/** Protocol identifiers. */
export const protocolId = v.picklist(['alpha', 'beta']);
/** Position side. */
export const side = v.picklist(['long', 'short']);
/** Grouped market symbol `<INDEX>-PERP`. */
export const market = v.pipe(v.string(), v.description('Grouped market symbol <INDEX>-PERP.'));
/** Native variant id, null when unavailable. */
export const marketVariant = v.nullable(
  v.pipe(v.string(), v.description('Protocol-native variant id <INDEX>/USD[<collateral tokens>].')),
);
/** Base58 wallet address. */
export const address = v.pipe(v.string(), v.description('Base58 wallet address.'));
/** Hourly rate, signed: positive = the side receives. */
export const hourlyRate = v.pipe(v.number(), v.description('Net hourly rate; positive = the side receives.'));

// ---------------------------------------------------------------------------------------------
// Records (every field described: units, sign and when it is null; test/http/openapi-descriptions.test.ts)

/** `schema` with a description, which the OpenAPI document shows on the field. */
export function described<S extends v.GenericSchema>(schema: S, text: string) {
  return v.pipe(schema, v.description(text));
}

/** ProtocolInfo (GET /v1/protocols). */
export const ProtocolInfo = v.strictObject({
  id: described(protocolId, 'Protocol identifier used in paths and in the `protocol` field: alpha or beta.'),
  name: described(v.string(), 'Display name of the protocol.'),
  chain: described(v.string(), 'Chain the protocol runs on (solana).'),
});

/** ProtocolOverview (GET /v1/protocols/stats). */
export const ProtocolOverview = v.strictObject({
  protocol: described(protocolId, 'Protocol identifier: alpha or beta.'),
  open_interest_usd: described(usdNonNegative, 'Current open interest across all markets, long plus short, in USD.'),
  volume_24h_usd: described(usdNonNegative, 'Traded notional over the trailing 24 hours, in USD (liquidations excluded).'),
  fees_24h_usd: described(usdNonNegative, 'Trading fees over the trailing 24 hours, in USD; excludes funding and borrowing charges.'),
  liquidations_24h_usd: described(usdNonNegative, 'Liquidated notional over the trailing 24 hours, in USD.'),
  markets: described(count, 'Number of distinct active market symbols.'),
});

const marketField = described(market, 'Grouped market symbol <INDEX>-PERP.');
const variantField = described(marketVariant, 'Protocol-native variant id <INDEX>/USD[<collateral tokens>]; null when the protocol has no variants.');

/** MarketRef of alpha (GET /v1/alpha/markets): one row per variant. */
export const MarketRef = v.strictObject({ market: marketField, market_variant: variantField });

/** MarketRef of beta (GET /v1/beta/markets): one row per market, no variants. */
export const BetaMarketRef = v.strictObject({
  market: marketField,
  market_variant: described(v.null(), 'Always null: beta has one pool per market.'),
});

const marketStatsEntries = {
  market: marketField,
  index_price: described(v.number(), 'Oracle price of the index token at the latest market snapshot, in USD (not rounded).'),
  open_interest_long_usd: described(usdNonNegative, 'Open interest of longs, in USD.'),
  open_interest_short_usd: described(usdNonNegative, 'Open interest of shorts, in USD.'),
  volume_24h_usd: described(usdNonNegative, 'Traded notional over the trailing 24 hours, in USD (liquidations excluded).'),
  fees_24h_usd: described(usdNonNegative, 'Trading fees over the trailing 24 hours, in USD; excludes funding and borrowing.'),
  liquidations_24h_usd: described(usdNonNegative, 'Liquidated notional over the trailing 24 hours, in USD.'),
};

/** Market stats row of alpha (GET /v1/alpha/markets/stats), per variant. */
export const Market = v.strictObject({
  market_variant: variantField,
  ...marketStatsEntries,
  funding_rate_long: described(hourlyRate, 'Net hourly rate of longs (funding folded with borrowing), a fraction per hour; positive = longs receive, negative = they pay. × 8760 annualizes.'),
  funding_rate_short: described(hourlyRate, 'Net hourly rate of shorts (funding folded with borrowing), a fraction per hour; positive = shorts receive, negative = they pay.'),
});

/** Market stats row of beta (GET /v1/beta/markets/stats): rates are the negated borrow rates (<= 0), no variant. */
export const BetaMarket = v.strictObject({
  market_variant: described(v.null(), 'Always null: beta has one pool per market.'),
  ...marketStatsEntries,
  funding_rate_long: described(v.pipe(v.number(), v.maxValue(0)), 'Negated hourly borrow rate of longs, a fraction per hour (always <= 0: beta has no funding, longs only pay).'),
  funding_rate_short: described(v.pipe(v.number(), v.maxValue(0)), 'Negated hourly borrow rate of shorts, a fraction per hour (always <= 0).'),
});

/** Liquidation event (GET /v1/alpha/liquidations/search). */
export const Liquidation = v.strictObject({
  time: described(timestamp, 'Execution time of the liquidation fill (UTC).'),
  position_id: described(integer, 'The lifecycle the liquidation terminated (see /v1/alpha/positions/{address}/{id}).'),
  protocol: described(protocolId, 'Protocol identifier.'),
  market: marketField,
  market_variant: variantField,
  address: described(address, 'Owner of the liquidated position (base58).'),
  side: described(side, 'Side of the liquidated position: long or short.'),
  size_usd: described(v.number(), 'Notional closed by the liquidation, in USD (positive).'),
  collateral_usd: described(v.number(), 'Collateral of the position just before the liquidation, in USD.'),
  price: described(v.number(), 'Execution price, in USD per index token (not rounded).'),
  entry_price: described(v.number(), 'Size-weighted average entry price of the lifecycle, in USD per index token.'),
  pnl_usd: described(v.number(), 'Realized PnL of the liquidation fill before fees, in USD; negative = a loss.'),
  liquidation_fee_usd: described(v.number(), 'Liquidation fee charged, in USD (>= 0).'),
  tx: described(v.string(), 'Transaction signature (base58).'),
});

/** Liquidation history bucket (GET /v1/alpha/liquidations/history). */
export const LiquidationBucket = v.strictObject({
  time: described(timestamp, 'Start of the bucket (UTC, aligned to the UTC epoch).'),
  count: described(count, 'Liquidations in the bucket.'),
  long_usd: described(usdNonNegative, 'Liquidated notional of longs, in USD.'),
  short_usd: described(usdNonNegative, 'Liquidated notional of shorts, in USD.'),
  total_usd: described(usdNonNegative, 'Liquidated notional of both sides, in USD.'),
  fees_usd: described(usd, 'Liquidation fees charged in the bucket, in USD.'),
});

/** Current open-interest snapshot (GET /v1/alpha/open-interest). */
export const OpenInterestSnapshot = v.strictObject({
  market_variant: variantField,
  market: marketField,
  time: described(timestamp, 'Time of the market snapshot the values come from (UTC).'),
  long_usd: described(usdNonNegative, 'Open interest of longs, in USD.'),
  short_usd: described(usdNonNegative, 'Open interest of shorts, in USD.'),
  total_usd: described(usdNonNegative, 'Long plus short open interest, in USD.'),
});

/** Open-interest bucket (GET /v1/alpha/open-interest/history). Not constrained to >= 0: a fill replay may dip below. */
export const OpenInterestBucket = v.strictObject({
  time: described(timestamp, 'Start of the bucket (UTC, aligned to the UTC epoch).'),
  long_usd: described(usd, 'Open interest of longs at the end of the bucket (now, for the running bucket), in USD.'),
  short_usd: described(usd, 'Open interest of shorts at the end of the bucket, in USD.'),
  total_usd: described(usd, 'Long plus short open interest at the end of the bucket, in USD.'),
});

/** Volume bucket (GET /v1/alpha/volume/history). */
export const VolumeBucket = v.strictObject({
  time: described(timestamp, 'Start of the bucket (UTC, aligned to the UTC epoch).'),
  volume_usd: described(usdNonNegative, 'Traded notional of open, increase, decrease and close fills, in USD; liquidations excluded.'),
  fees_usd: described(usd, 'Trading fees of every fill in the bucket (liquidation fills\' trading fee included, the liquidation fee not), in USD.'),
});

/** Current funding rate (GET /v1/alpha/funding-rates). */
export const FundingRate = v.strictObject({
  market_variant: variantField,
  time: described(timestamp, 'Time of the market snapshot the rates come from (UTC).'),
  funding_rate_long: described(hourlyRate, 'Net hourly rate of longs, a fraction per hour; positive = longs receive, negative = they pay.'),
  funding_rate_short: described(hourlyRate, 'Net hourly rate of shorts, a fraction per hour; positive = shorts receive, negative = they pay.'),
});

/** Funding-rate bucket (GET /v1/alpha/funding-rates/history). */
export const FundingRateBucket = v.strictObject({
  time: described(timestamp, 'Start of the bucket (UTC, aligned to the UTC epoch).'),
  funding_rate_long: described(hourlyRate, 'Average of the snapshots\' net hourly rate of longs in the bucket; positive = longs receive.'),
  funding_rate_short: described(hourlyRate, 'Average of the snapshots\' net hourly rate of shorts in the bucket; positive = shorts receive.'),
});

/** AccountsSummary (GET /v1/alpha/accounts/stats). */
export const AccountsSummary = v.strictObject({
  total_accounts: described(count, 'Addresses with at least one alpha fill.'),
  accounts_with_open_positions: described(count, 'Accounts with at least one open position now.'),
  total_positions_ever: described(count, 'Lifecycles ever opened (a reused on-chain position counts once per lifecycle).'),
  total_active_positions: described(count, 'Lifecycles open now.'),
  total_volume_usd: described(usdNonNegative, 'Lifetime traded notional of all accounts, in USD (equals the protocol\'s volume series).'),
  avg_net_pnl_usd: described(usd, 'Mean net PnL per account, in USD; negative = accounts lose on average.'),
  total_profits_usd: described(usdNonNegative, 'Sum of net PnL over accounts whose net PnL is above 0, in USD (>= 0).'),
  total_losses_usd: described(v.pipe(v.number(), v.maxValue(0)), 'Sum of net PnL over accounts whose net PnL is below 0, in USD (<= 0).'),
  avg_win_rate: described(ratio, 'Mean win rate over accounts with at least one closed trade, 0 to 1.'),
});

/** Account (GET /v1/alpha/accounts/search and /v1/alpha/accounts/{address}). */
export const Account = v.strictObject({
  address: described(address, 'Wallet address (base58).'),
  trades: described(count, 'Closed plus liquidated lifecycles.'),
  wins: described(count, 'Trades whose net PnL is above 0.'),
  losses: described(count, 'Trades whose net PnL is below 0.'),
  win_rate: described(ratio, 'wins / trades, 0 to 1 (0 with no trade).'),
  volume_usd: described(usdNonNegative, 'Lifetime traded notional, in USD (the account\'s share of the volume series).'),
  net_pnl_usd: described(usd, 'Lifetime realized PnL net of every fee, plus funding earned, in USD; includes partial decreases of open lifecycles.'),
  positions: described(count, 'Lifecycles ever opened.'),
  open_positions: described(count, 'Lifecycles open now.'),
  first_trade_at: described(timestamp, 'Time of the first fill (UTC).'),
  last_trade_at: described(timestamp, 'Time of the latest fill (UTC).'),
  realized_pnl_usd: described(usd, 'Lifetime realized PnL before fees, in USD; negative = a loss.'),
  fees_usd: described(usd, 'Lifetime trading fees paid, in USD (>= 0).'),
  funding_fees_usd: described(usd, 'Lifetime funding paid, in USD (>= 0).'),
  funding_earned_usd: described(usd, 'Lifetime funding received, in USD (>= 0).'),
  borrowing_fees_usd: described(usd, 'Lifetime borrowing fees paid, in USD (>= 0).'),
  liquidation_fees_usd: described(usd, 'Lifetime liquidation fees paid, in USD (>= 0).'),
  avg_leverage: described(v.number(), 'Mean of the lifecycles\' max leverage (notional / collateral, e.g. 5 = 5x).'),
  max_leverage: described(v.number(), 'Highest leverage any lifecycle reached (notional / collateral).'),
  avg_position_size_usd: described(usdNonNegative, 'Mean of the lifecycles\' max notional, in USD.'),
  max_position_size_usd: described(usdNonNegative, 'Largest notional any lifecycle reached, in USD.'),
  avg_position_duration_hours: described(v.nullable(v.number()), 'Mean duration of closed lifecycles, in hours; null while the account has none.'),
  open_notional_usd: described(usdNonNegative, 'Current notional of the open positions, in USD (sort key current_notional).'),
  markets_traded: described(v.array(v.string()), 'Distinct market symbols traded, sorted.'),
  market_variants_traded: described(v.array(v.string()), 'Distinct market variants traded, sorted.'),
});

/** Offset pagination (contract: `limit` 1-500 echoed). */
export const Pagination = v.strictObject({
  limit: described(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LIMIT)), `Rows per page applied (the \`limit\` parameter, 1-${MAX_LIMIT}, default ${MAX_LIMIT}).`),
  offset: described(count, 'Rows skipped (the `offset` parameter, default 0).'),
  total: described(count, 'Rows matching the query, ignoring limit and offset.'),
});

/** Named records: `components/schemas` entries of the OpenAPI document, referenced by `$ref`. */
export const RESPONSE_DEFINITIONS = {
  ProtocolInfo,
  ProtocolOverview,
  MarketRef,
  BetaMarketRef,
  Market,
  BetaMarket,
  Liquidation,
  LiquidationBucket,
  OpenInterestSnapshot,
  OpenInterestBucket,
  VolumeBucket,
  FundingRate,
  FundingRateBucket,
  AccountsSummary,
  Account,
  Pagination,
} as const;

// ---------------------------------------------------------------------------------------------
// Envelopes

/** `{ data: T }` */
export function dataOf<T extends v.GenericSchema>(item: T) {
  // a named record stays a `$ref` (a description would inline it); its fields carry the descriptions
  const named = (Object.values(RESPONSE_DEFINITIONS) as v.GenericSchema[]).includes(item);
  return v.strictObject({ data: named ? item : described(item, 'The record.') });
}

/** `{ data: T[] }` */
export function listOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({ data: described(v.array(item), 'The records.') });
}

/** `{ data: T[], pagination }` (offset-paged). */
export function pagedListOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({ data: described(v.array(item), 'This page of records.'), pagination: Pagination });
}

/** `{ data: T[], next_cursor }` (cursor-paged). */
export function cursorListOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({
    data: described(v.array(item), 'This page of records, newest first.'),
    next_cursor: described(v.nullable(v.string()), 'Opaque token: pass as `cursor` for the next, older page; null on the last page or at the plan\'s lookback.'),
  });
}

/** `{ interval, from, to, data: Bucket[] }` (bucketed history, oldest first). */
export function historyOf<T extends v.GenericSchema>(
  bucket: T,
  intervals: readonly string[] = FINE_INTERVALS,
) {
  return v.strictObject({
    interval: described(v.picklist(intervals), 'Bucket size applied.'),
    from: v.pipe(timestamp, v.description('Effective window start (default or plan-clamped).')),
    to: v.pipe(timestamp, v.description('Effective window end (exclusive).')),
    data: described(v.array(bucket), 'Buckets, oldest first.'),
  });
}

/** Coarse-interval history envelope. */
export function coarseHistoryOf<T extends v.GenericSchema>(bucket: T) {
  return historyOf(bucket, COARSE_INTERVALS);
}

// ---------------------------------------------------------------------------------------------
// Errors

/** Every error code of the contract (§2), plus `bad_request` (a malformed request no row covers). */
export const ERROR_CODES = [
  'invalid_parameter',
  'unknown_parameter',
  'window_too_large',
  'bad_request',
  'unauthorized',
  'plan_required',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'credits_exhausted',
  'internal_error',
] as const satisfies readonly ErrorCode[];

// Compile-time check that ERROR_CODES lists every ErrorCode.
type MissingCodes = Exclude<ErrorCode, (typeof ERROR_CODES)[number]>;
const _allCodesListed: MissingCodes extends never ? true : never = true;
void _allCodesListed;

/** The error body `{ error: { code, message, param? } }` restricted to `codes`. */
export function errorBodyOf(codes: readonly ErrorCode[]) {
  return v.strictObject({
    error: described(v.strictObject({
      code: described(v.picklist(codes), 'Machine-readable error code (snake_case).'),
      message: v.pipe(v.string(), v.description('One human sentence.')),
      param: v.optional(v.pipe(v.string(), v.description('The query parameter at fault (400 only).'))),
    }), 'What went wrong.'),
  });
}

/** The error body with any code. */
export const ErrorBody = errorBodyOf(ERROR_CODES);
