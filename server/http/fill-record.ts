/**
 * The Fill record of `GET /v1/{protocol}/fills`: the stream's data frame (server/stream/fill-json.ts,
 * sql/stream/fills.sql), field for field, with a description for each (the OpenAPI document shows them).
 */
import * as v from 'valibot';
import { address, integer, market, marketVariant, protocolId, side, timestamp, usd } from './response-schemas/scalars.ts';

const d = <S extends v.GenericSchema>(schema: S, text: string) => v.pipe(schema, v.description(text));

/** One fill of the journal as the stream sends it. */
export const FillRecord = v.strictObject({
  seq: d(integer, 'Journal sequence number: the global append order of fills (ties in time are ordered by it).'),
  protocol: d(protocolId, 'Protocol of the fill: alpha or beta.'),
  position_id: d(integer, 'Integer id of the position lifecycle the fill belongs to (GET /v1/{protocol}/positions/{address}/{id}).'),
  address: d(address, 'Owner wallet of the position (base58).'),
  market: d(market, 'Grouped market symbol <INDEX>-PERP.'),
  market_variant: d(marketVariant, 'Protocol-native variant id; always null on beta (one pool per market).'),
  side: d(side, 'Position side: long or short.'),
  time: d(timestamp, 'Fill execution time (UTC, milliseconds).'),
  type: d(
    v.picklist(['open', 'increase', 'decrease', 'close', 'liquidation']),
    'open = first fill of a lifecycle, close / liquidation = terminal fill, increase / decrease = the others (collateral-only edits by the sign of their collateral delta).',
  ),
  size_delta_usd: d(usd, 'Signed notional change in USD: positive for increase, negative for decrease (a liquidation: minus the size it closed); 0 for a collateral-only edit.'),
  position_size_usd: d(usd, 'Position notional after the fill, USD (0 after close or liquidation).'),
  collateral_delta_usd: d(usd, 'Signed collateral change in USD: positive = deposited, negative = withdrawn or lost.'),
  price: d(v.number(), 'Execution price of the index token, USD.'),
  entry_price: d(v.number(), 'Running size-weighted average entry price after the fill, USD.'),
  pnl_delta_usd: d(usd, 'Realized PnL of the fill in USD, before fees (0 when none); positive = profit.'),
  fee_usd: d(usd, 'Trading fee in USD (>= 0); excludes borrowing, funding and liquidation charges.'),
  borrowing_fee_usd: d(v.nullable(usd), 'Borrowing fee settled on the fill, USD (>= 0); null when none settled.'),
  funding_fee_usd: d(v.nullable(usd), 'Funding fee paid on the fill, USD (>= 0); null when none settled.'),
  liquidation_fee_usd: d(v.nullable(usd), 'Liquidation fee, USD (>= 0); null when none (only liquidation fills carry one).'),
  fee_total_usd: d(usd, 'Total of all applicable fee components, USD (>= 0).'),
  tx: d(v.string(), 'Transaction signature (base58).'),
});
