/** The records of `GET /v1/alpha/funding-rates` and `GET /v1/alpha/funding-rates/history`. */
import * as v from 'valibot';
import { described, hourlyRate, timestamp } from './scalars.ts';
import { variantField } from './markets.ts';

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
  funding_rate_long: described(hourlyRate, "Average of the snapshots' net hourly rate of longs in the bucket; positive = longs receive."),
  funding_rate_short: described(hourlyRate, "Average of the snapshots' net hourly rate of shorts in the bucket; positive = shorts receive."),
});
