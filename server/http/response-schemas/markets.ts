/** The records of the market routes (`GET /v1/{protocol}/markets` and `.../markets/stats`) and the market fields other records share. */
import * as v from 'valibot';
import { described, hourlyRate, market, marketVariant, usdNonNegative } from './scalars.ts';

/** The grouped market symbol as a record's field. */
export const marketField = described(market, 'Grouped market symbol <INDEX>-PERP.');
/** The protocol-native variant as a record's field. */
export const variantField = described(marketVariant, 'Protocol-native variant id <INDEX>/USD[<collateral tokens>]; null when the protocol has no variants.');

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
