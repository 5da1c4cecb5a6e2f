/**
 * valibot schemas of the 200 bodies (and of the error body), shared by the route files: the
 * OpenAPI document (openapi.ts) is generated from them with `@valibot/to-json-schema`, and
 * test/openapi.test.ts validates real responses against that document.
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
// Records

/** ProtocolInfo (endpoint 1). */
export const ProtocolInfo = v.strictObject({ id: protocolId, name: v.string(), chain: v.string() });

/** ProtocolOverview (endpoint 2). */
export const ProtocolOverview = v.strictObject({
  protocol: protocolId,
  open_interest_usd: usdNonNegative,
  volume_24h_usd: usdNonNegative,
  fees_24h_usd: usdNonNegative,
  liquidations_24h_usd: usdNonNegative,
  markets: count,
});

/** MarketRef of alpha (endpoint 3): one row per variant. */
export const MarketRef = v.strictObject({ market, market_variant: marketVariant });

/** MarketRef of beta (endpoint 20): one row per market, no variants. */
export const BetaMarketRef = v.strictObject({ market, market_variant: v.null() });

const marketStatsEntries = {
  market,
  index_price: v.number(),
  open_interest_long_usd: usdNonNegative,
  open_interest_short_usd: usdNonNegative,
  volume_24h_usd: usdNonNegative,
  fees_24h_usd: usdNonNegative,
  liquidations_24h_usd: usdNonNegative,
};

/** Market stats row of alpha (endpoint 4), per variant. */
export const Market = v.strictObject({
  market_variant: marketVariant,
  ...marketStatsEntries,
  funding_rate_long: hourlyRate,
  funding_rate_short: hourlyRate,
});

/** Market stats row of beta (endpoint 21): rates are the negated borrow rates (<= 0), no variant. */
export const BetaMarket = v.strictObject({
  market_variant: v.null(),
  ...marketStatsEntries,
  funding_rate_long: v.pipe(v.number(), v.maxValue(0), v.description('Negated hourly borrow rate of longs (<= 0).')),
  funding_rate_short: v.pipe(v.number(), v.maxValue(0), v.description('Negated hourly borrow rate of shorts (<= 0).')),
});

/** Liquidation event (endpoint 5; contract §5). */
export const Liquidation = v.strictObject({
  time: timestamp,
  position_id: integer,
  protocol: protocolId,
  market,
  market_variant: marketVariant,
  address,
  side,
  size_usd: v.pipe(v.number(), v.description('Notional at liquidation.')),
  collateral_usd: v.pipe(v.number(), v.description('Collateral before the liquidation.')),
  price: v.pipe(v.number(), v.description('Execution price.')),
  entry_price: v.number(),
  pnl_usd: v.pipe(v.number(), v.description('Realized PnL of the liquidation, before fees.')),
  liquidation_fee_usd: v.number(),
  tx: v.pipe(v.string(), v.description('Transaction signature.')),
});

/** Liquidation history bucket (endpoint 6; contract §4). */
export const LiquidationBucket = v.strictObject({
  time: timestamp,
  count,
  long_usd: usdNonNegative,
  short_usd: usdNonNegative,
  total_usd: usdNonNegative,
  fees_usd: usd,
});

/** Current open-interest snapshot (endpoint 7). */
export const OpenInterestSnapshot = v.strictObject({
  market_variant: marketVariant,
  market,
  time: timestamp,
  long_usd: usdNonNegative,
  short_usd: usdNonNegative,
  total_usd: usdNonNegative,
});

/** Open-interest bucket (endpoint 8). Not constrained to >= 0: a fill replay may dip below. */
export const OpenInterestBucket = v.strictObject({ time: timestamp, long_usd: usd, short_usd: usd, total_usd: usd });

/** Volume bucket (endpoint 9). */
export const VolumeBucket = v.strictObject({ time: timestamp, volume_usd: usdNonNegative, fees_usd: usd });

/** Current funding rate (endpoint 10). */
export const FundingRate = v.strictObject({
  market_variant: marketVariant,
  time: timestamp,
  funding_rate_long: hourlyRate,
  funding_rate_short: hourlyRate,
});

/** Funding-rate bucket (endpoint 11). */
export const FundingRateBucket = v.strictObject({
  time: timestamp,
  funding_rate_long: hourlyRate,
  funding_rate_short: hourlyRate,
});

/** AccountsSummary (endpoint 12). */
export const AccountsSummary = v.strictObject({
  total_accounts: count,
  accounts_with_open_positions: count,
  total_positions_ever: count,
  total_active_positions: count,
  total_volume_usd: usdNonNegative,
  avg_net_pnl_usd: usd,
  total_profits_usd: usdNonNegative,
  total_losses_usd: v.pipe(v.number(), v.maxValue(0)),
  avg_win_rate: ratio,
});

/** Account (endpoints 13, 14). */
export const Account = v.strictObject({
  address,
  trades: count,
  wins: count,
  losses: count,
  win_rate: ratio,
  volume_usd: usdNonNegative,
  net_pnl_usd: usd,
  positions: count,
  open_positions: count,
  first_trade_at: timestamp,
  last_trade_at: timestamp,
  realized_pnl_usd: usd,
  fees_usd: usd,
  funding_fees_usd: usd,
  funding_earned_usd: usd,
  borrowing_fees_usd: usd,
  liquidation_fees_usd: usd,
  avg_leverage: v.number(),
  max_leverage: v.number(),
  avg_position_size_usd: usdNonNegative,
  max_position_size_usd: usdNonNegative,
  avg_position_duration_hours: v.nullable(
    v.pipe(v.number(), v.description('Average over closed lifecycles; null while the account has none.')),
  ),
  open_notional_usd: usdNonNegative,
  markets_traded: v.array(v.string()),
  market_variants_traded: v.array(v.string()),
});

/** Offset pagination (contract §1: `limit` 1-500 echoed). */
export const Pagination = v.strictObject({
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LIMIT)),
  offset: count,
  total: count,
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
  return v.strictObject({ data: item });
}

/** `{ data: T[] }` */
export function listOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({ data: v.array(item) });
}

/** `{ data: T[], pagination }` (offset-paged). */
export function pagedListOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({ data: v.array(item), pagination: Pagination });
}

/** `{ data: T[], next_cursor }` (cursor-paged). */
export function cursorListOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({
    data: v.array(item),
    next_cursor: v.nullable(v.pipe(v.string(), v.description('Pass as `cursor` for the next, older page; null on the last page.'))),
  });
}

/** `{ interval, from, to, data: Bucket[] }` (bucketed history, oldest first). */
export function historyOf<T extends v.GenericSchema>(
  bucket: T,
  intervals: readonly string[] = FINE_INTERVALS,
) {
  return v.strictObject({
    interval: v.picklist(intervals),
    from: v.pipe(timestamp, v.description('Effective window start (default or plan-clamped).')),
    to: v.pipe(timestamp, v.description('Effective window end (exclusive).')),
    data: v.array(bucket),
  });
}

/** Coarse-interval history envelope (endpoints 6, 11). */
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
    error: v.strictObject({
      code: v.picklist(codes),
      message: v.pipe(v.string(), v.description('One human sentence.')),
      param: v.optional(v.pipe(v.string(), v.description('The query parameter at fault (400 only).'))),
    }),
  });
}

/** The error body with any code. */
export const ErrorBody = errorBodyOf(ERROR_CODES);
