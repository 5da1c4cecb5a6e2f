/** The records of the liquidation routes: `GET /v1/alpha/liquidations/search` and `GET /v1/alpha/liquidations/history`. */
import * as v from 'valibot';
import { address, count, described, integer, protocolId, side, timestamp, usd, usdNonNegative } from './scalars.ts';
import { marketField, variantField } from './markets.ts';

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
