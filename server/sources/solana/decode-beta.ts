/**
 * beta (Jupiter Perpetuals): one fill event → one journal fill. Amounts are u64 USD at 6
 * decimals, the journal's own scale, so they are used as integer micro-dollars as they are. A
 * fill the event cannot describe without a guess (an unknown custody or side, a size that
 * contradicts the position's previous fill) throws a RejectedFill with the reason.
 */
import type { FillType, IncomingFill } from '../../journal/rows.ts';
import type { BetaEvent } from './beta-events.ts';
import { PositionChain, type PositionRunning } from './chain.ts';
import { BETA_CUSTODIES, BETA_SIDE, BETA_SIZE_IS_AFTER_EVENT } from './layout.ts';
import { microsToUsd, scaledToNumber, usdOrNull } from './units.ts';

/** A decoded event that must not become a fill as it stands: quarantined with `message`. */
export class RejectedFill extends Error {}

export interface BetaFillContext {
  tx: string;
  slot: number;
  /** epoch ms of the transaction's block (beta events carry no timestamp of their own) */
  time: number;
  eventIndex: number;
  /** this position's open lifecycle before the fill, if the indexer knows it */
  running?: PositionRunning;
}

function custodySymbol(custody: string, field: string): string {
  const s = BETA_CUSTODIES[custody];
  if (s === undefined) throw new RejectedFill(`beta: ${field} ${custody} is not a known custody (BETA_CUSTODIES, accounts.md §6)`);
  return s;
}

/**
 * The fill of one beta event. Type: size 0 before → open; 0 after → close, or liquidation for
 * LiquidateFullPositionEvent; otherwise the event's direction (a collateral edit included).
 * Trading fee = positionFeeUsd + priceImpactFeeUsd; the borrow fee is the event's fundingFeeUsd
 * (beta has no funding); feeUsd, their program-side total, is not used (its composition is not
 * documented).
 */
export function betaFill(ev: BetaEvent, ctx: BetaFillContext): IncomingFill {
  if (ev.positionSide !== BETA_SIDE.long && ev.positionSide !== BETA_SIDE.short) {
    throw new RejectedFill(`beta: ${ev.name} positionSide ${ev.positionSide} (expected ${BETA_SIDE.long} long or ${BETA_SIDE.short} short)`);
  }
  const asset = custodySymbol(ev.custody, 'positionCustody');
  const collateralToken = custodySymbol(ev.collateralCustody, 'positionCollateralCustody');
  const known = ctx.running;

  let sizeBefore: bigint;
  let sizeAfter: bigint;
  if (ev.direction === 'liquidate') {
    sizeBefore = ev.positionSizeUsd;
    sizeAfter = 0n;
  } else {
    const sign = ev.direction === 'increase' ? 1n : -1n;
    sizeAfter = BETA_SIZE_IS_AFTER_EVENT ? ev.positionSizeUsd : ev.positionSizeUsd + sign * ev.sizeUsdDelta;
    sizeBefore = sizeAfter - sign * ev.sizeUsdDelta;
  }
  if (sizeBefore < 0n) throw new RejectedFill(`beta: ${ev.name} removes ${ev.sizeUsdDelta} µUSD from a position of ${sizeAfter} µUSD after it`);
  if (known && sizeBefore !== known.sizeMicros && sizeBefore !== 0n) {
    throw new RejectedFill(`beta: ${ev.name} implies a size of ${sizeBefore} µUSD before it, the position's previous fill left ${known.sizeMicros} (positionSizeUsd before/after is UNCONFIRMED)`);
  }
  const delta = sizeAfter - sizeBefore;
  const running = sizeBefore === 0n ? undefined : known;
  const prev = sizeBefore === 0n ? 0n : (running?.collateralMicros ?? ev.originalPositionCollateralUsd ?? 0n);
  // increases carry the collateral added, decreases and liquidations the collateral after
  const collAfter = sizeAfter === 0n ? 0n : ev.direction === 'increase' ? prev + (ev.collateralUsdDelta ?? 0n) : (ev.positionCollateralUsd ?? 0n);

  let type: FillType;
  if (sizeBefore === 0n) type = 'open';
  else if (sizeAfter === 0n) type = ev.direction === 'liquidate' ? 'liquidation' : 'close';
  else type = ev.direction === 'increase' ? 'increase' : 'decrease';

  const fee = ev.positionFeeUsd + ev.priceImpactFeeUsd;
  const borrow = ev.fundingFeeUsd;
  const liq = ev.liquidationFeeUsd ?? 0n;
  const pnl = ev.pnlDelta === undefined ? 0n : ev.hasProfit ? ev.pnlDelta : -ev.pnlDelta;
  const price = scaledToNumber(ev.price, 6);
  // a position first seen mid-lifecycle starts from the program's entry where the event has it
  const seed: PositionRunning | undefined =
    running ??
    (sizeBefore === 0n
      ? undefined
      : {
          collateralMicros: prev,
          sizeMicros: sizeBefore,
          increasedMicros: sizeBefore,
          increasedNotional: scaledToNumber(ev.positionPrice ?? ev.price, 6) * (Number(sizeBefore) / 1e6),
        });
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
    side: ev.positionSide === BETA_SIDE.long ? 'long' : 'short',
    type,
    size_delta_usd: microsToUsd(delta),
    position_size_usd: microsToUsd(sizeAfter),
    collateral_delta_usd: microsToUsd(collAfter - prev),
    position_collateral_usd: microsToUsd(collAfter),
    price,
    entry_price: PositionChain.entryAfter(seed, delta, price, price),
    pnl_delta_usd: microsToUsd(pnl),
    fee_usd: microsToUsd(fee),
    borrowing_fee_usd: usdOrNull(borrow),
    funding_fee_usd: null,
    liquidation_fee_usd: usdOrNull(liq),
    funding_earned_usd: null,
    fee_total_usd: microsToUsd(fee + borrow + liq),
    // beta executes at the oracle price (its price impact is a fee, not a price move)
    index_price: price,
    collateral_token: collateralToken,
    // the program's own entry (Position.price): decrease, close and liquidation events carry it
    // as positionPrice (a decrease leaves the entry, protocols.md, so before and after agree);
    // increase events do not, and the entry an increase makes is not computed here (the
    // program's averaging is not in shared/design/solana/): null, unknown
    position_entry_price: ev.direction !== 'increase' && ev.positionPrice ? scaledToNumber(ev.positionPrice, 6) : null,
  };
}
