/**
 * beta (Jupiter Perpetuals): increase, decrease, instant and liquidation events → one journal
 * fill each. A collateral edit is an increase or decrease event with a zero size delta. All
 * amounts are u64 USD / prices at 6 decimals. Layouts and constants: layout.ts.
 */
import type { FillType, IncomingFill } from '../../journal/rows.ts';
import { BETA_CUSTODIES, type BetaEventBody } from './layout.ts';
import { microsToUsd, usdOrNull } from './units.ts';

export type BetaEventKind = 'increase' | 'decrease' | 'liquidate';

/** A decoded beta event; decreases and increases lack the fields their layout does not have. */
export type BetaEvent = Omit<BetaEventBody, 'hasProfit' | 'pnlDelta' | 'liquidationFeeUsd'> &
  Partial<Pick<BetaEventBody, 'hasProfit' | 'pnlDelta' | 'liquidationFeeUsd'>>;

export interface BetaFillContext {
  tx: string;
  slot: number;
  /** epoch ms of the transaction's block */
  time: number;
  eventIndex: number;
  /** position_collateral_usd (micro-dollars) of this position's previous fill, if known */
  prevCollateralMicros?: bigint;
}

/** Token symbol of a custody account; throws for an unknown custody (see BETA_CUSTODIES). */
export function custodySymbol(custody: string): string {
  const s = BETA_CUSTODIES[custody];
  if (s === undefined) throw new Error(`beta: unknown custody ${custody}`);
  return s;
}

/**
 * The fill of one beta event. Fill type (protocols.md): size 0 before → open; size 0 after →
 * close, or liquidation for LiquidateFullPositionEvent; otherwise the event's direction
 * (a collateral edit included). Trading fee = the event's fee (position fee + price-impact
 * fee); the borrow fee is the event's "funding fee" (beta has no funding).
 */
export function betaFill(kind: BetaEventKind, ev: BetaEvent, ctx: BetaFillContext): IncomingFill {
  if (ev.positionSide !== 1 && ev.positionSide !== 2) throw new Error(`beta: position side ${ev.positionSide} (expected 1 or 2)`);
  const long = ev.positionSide === 1;
  const asset = custodySymbol(ev.custody);
  const sign = kind === 'increase' ? 1n : -1n;
  const delta = sign * ev.sizeUsdDelta;
  const sizeAfter = ev.positionSizeUsd;
  const sizeBefore = sizeAfter - delta;
  const collAfter = sizeAfter === 0n ? 0n : ev.positionCollateralUsd;
  const prev = sizeBefore === 0n ? 0n : (ctx.prevCollateralMicros ?? collAfter - sign * ev.collateralUsdDelta);

  let type: FillType;
  if (sizeBefore === 0n) type = 'open';
  else if (sizeAfter === 0n) type = kind === 'liquidate' ? 'liquidation' : 'close';
  else type = kind === 'increase' ? 'increase' : 'decrease';

  const borrow = ev.fundingFeeUsd ?? 0n;
  const liq = ev.liquidationFeeUsd ?? 0n;
  const pnl = ev.pnlDelta === undefined ? 0n : ev.hasProfit ? ev.pnlDelta : -ev.pnlDelta;
  const price = microsToUsd(ev.price);
  return {
    protocol: 'beta',
    time: ctx.time,
    slot: ctx.slot,
    tx: ctx.tx,
    event_index: ctx.eventIndex,
    position_key: ev.positionKey,
    address: ev.owner,
    market: `${asset}-PERP`,
    market_variant: null,
    side: long ? 'long' : 'short',
    type,
    size_delta_usd: microsToUsd(delta),
    position_size_usd: microsToUsd(sizeAfter),
    collateral_delta_usd: microsToUsd(collAfter - prev),
    position_collateral_usd: microsToUsd(collAfter),
    price,
    entry_price: ev.positionPrice > 0n ? microsToUsd(ev.positionPrice) : price,
    pnl_delta_usd: microsToUsd(pnl),
    fee_usd: microsToUsd(ev.feeUsd),
    borrowing_fee_usd: usdOrNull(borrow),
    funding_fee_usd: null,
    liquidation_fee_usd: usdOrNull(liq),
    funding_earned_usd: null,
    fee_total_usd: microsToUsd(ev.feeUsd + borrow + liq),
    // beta executes at the oracle price (its price impact is a fee, not a price move)
    index_price: price,
    collateral_token: custodySymbol(ev.collateralCustody),
  };
}
