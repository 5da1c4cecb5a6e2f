/** The records of `GET /v1/alpha/open-interest` and `GET /v1/alpha/open-interest/history`. */
import * as v from 'valibot';
import { described, timestamp, usd, usdNonNegative } from './scalars.ts';
import { marketField, variantField } from './markets.ts';

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
