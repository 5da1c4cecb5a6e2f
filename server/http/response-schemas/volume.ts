/** The record of `GET /v1/alpha/volume/history`. */
import * as v from 'valibot';
import { described, timestamp, usd, usdNonNegative } from './scalars.ts';

/** Volume bucket (GET /v1/alpha/volume/history). */
export const VolumeBucket = v.strictObject({
  time: described(timestamp, 'Start of the bucket (UTC, aligned to the UTC epoch).'),
  volume_usd: described(usdNonNegative, 'Traded notional of open, increase, decrease and close fills, in USD; liquidations excluded.'),
  fees_usd: described(usd, "Trading fees of every fill in the bucket (liquidation fills' trading fee included, the liquidation fee not), in USD."),
});
