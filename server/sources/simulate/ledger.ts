/**
 * Applies one operation to a position and writes the fill row and its `event` position snapshot.
 *
 * Accounting rule (the same for both protocols), on every fill:
 *  1. Borrowing and funding paid accrued since the last settlement are settled (charged to the
 *     collateral); funding earned is settled too but is claimable, paid out separately, so it
 *     never enters the collateral. A zero amount is written as null.
 *  2. The trading fee (and on a liquidation the liquidation fee) is charged to the collateral.
 *  3. A decrease realises PnL = |d| × (price / entry − 1) (reversed for shorts) at the execution
 *     price, `entry` being the position's own average entry (weighted by the size held, as the
 *     protocols keep it); a loss is charged to the collateral, a profit is paid out to the wallet.
 *  The fill's `entry_price` is the contract's one definition instead: the size-weighted average of
 *  the lifecycle's increase prices (`increaseEntry`). The two differ once a decrease is followed
 *  by an increase.
 *  4. Deposits add to the collateral; a partial decrease withdraws `withdrawShare` of what is left
 *     after 1-3; a close or liquidation leaves 0 (the remainder is paid out, or kept by the pool).
 *  position_collateral_usd is the collateral's value at the fill's index price, and
 *  collateral_delta_usd = position_collateral_usd − the previous fill's, so the chain
 *  previous + delta = current holds exactly; for collateral held in the index token (alpha WSOL)
 *  the delta therefore also carries the revaluation since the previous fill.
 * All USD amounts are rounded to 6 decimals; sizes and collateral are kept in exact micro-USD.
 */
import type { FillType, IncomingFill, IncomingPositionSnapshot, Protocol } from '../../journal/rows.ts';
import { alphaTrade } from './alpha-mechanics.ts';
import { betaFee } from './beta-mechanics.ts';
import { txSignature } from './ids.ts';
import { ALPHA, BETA, SLOT_GENESIS_MS, SLOT_MS, VARIANTS } from './markets.ts';
import { liquidationPrice, pendingBorrow, pendingEarned, pendingFunding } from './mechanics.ts';
import type { Pools } from './pools.ts';
import type { PricePaths } from './prices.ts';
import type { Position } from './types.ts';

export type Op =
  | { kind: 'increase'; delta: number; deposit: number }
  | { kind: 'decrease'; delta: number; withdrawShare: number }
  | { kind: 'collateral'; amount: number }
  | { kind: 'close' }
  | { kind: 'liquidate' };

/** USD rounded to 6 decimals (never −0) */
export function r6(x: number): number {
  const r = Math.round(x * 1e6) / 1e6;
  return r === 0 ? 0 : r;
}

const nullIfZero = (x: number): number | null => (x === 0 ? null : x);

/** Rows produced since the buffers were last taken. */
export interface LedgerOutput {
  fills: IncomingFill[];
  positionSnapshots: IncomingPositionSnapshot[];
}

/** Executes operations on positions and buffers the rows they produce (see the module comment). */
export class Ledger {
  out: LedgerOutput = { fills: [], positionSnapshots: [] };

  constructor(
    private readonly seed: number,
    private readonly pools: Pools,
    private readonly prices: PricePaths,
    private readonly addressOf: (owner: number) => string,
    /** next transaction number (part of the saved state) */
    public nextTx: number,
  ) {}

  /** Executes `op` on `pos` at `time` and returns the fill; the position and OI are updated. */
  execute(pos: Position, op: Op, time: number): IncomingFill {
    const def = VARIANTS[pos.v]!;
    const rt = this.pools.variants[pos.v]!;
    const p = this.prices.price[def.assetIdx]!;
    const alpha = def.protocol === 'alpha';
    const sizeBefore = pos.size;
    const s = sizeBefore / 1e6;

    // 1. settle accrued borrowing / funding against the cumulative factors
    const borrow = r6(pendingBorrow(rt, pos));
    const funding = r6(pendingFunding(rt, pos));
    const earned = r6(pendingEarned(rt, pos));
    if (pos.long) {
      pos.cumB = rt.cumBL;
      pos.cumFP = rt.cumFPL;
      pos.cumFE = rt.cumFEL;
    } else {
      pos.cumB = rt.cumBS;
      pos.cumFP = rt.cumFPS;
      pos.cumFE = rt.cumFES;
    }

    // 2. the size change, its execution price and trading fee
    let deltaMicros = 0;
    if (op.kind === 'increase') deltaMicros = Math.round(op.delta * 1e6);
    else if (op.kind === 'decrease') deltaMicros = -Math.min(sizeBefore - 1, Math.round(op.delta * 1e6));
    else if (op.kind === 'close' || op.kind === 'liquidate') deltaMicros = -sizeBefore;
    const delta = deltaMicros / 1e6;
    let price = p;
    let fee = 0;
    if (deltaMicros !== 0) {
      if (alpha) {
        const trade = alphaTrade(rt, pos.long, delta, p);
        fee = trade.fee;
        if (op.kind !== 'liquidate') price = trade.price; // a liquidation executes at the index price
      } else fee = betaFee(delta);
    }
    fee = r6(fee);
    const liqFee = op.kind === 'liquidate' ? r6(s * (alpha ? ALPHA.liquidationFeeFactor : BETA.liquidationFeeFactor)) : 0;

    // 3. realised PnL on the closed part
    let pnl = 0;
    if (deltaMicros < 0) pnl = r6(-delta * (pos.long ? price / pos.entry - 1 : 1 - price / pos.entry));

    // 4. collateral (USD amounts; converted to tokens when the collateral is the index token)
    const charges = fee + borrow + funding + liqFee + Math.max(0, -pnl);
    const unit = pos.tokenColl ? p : 1; // USD per collateral unit
    if (op.kind === 'close' || op.kind === 'liquidate') pos.amount = 0;
    else if (op.kind === 'decrease') {
      const left = pos.amount - charges / unit;
      pos.amount = pos.tokenColl ? left * (1 - op.withdrawShare) : r6(left - r6(left * op.withdrawShare));
    } else {
      const added = r6(op.kind === 'increase' ? op.deposit : op.amount) - charges;
      pos.amount = pos.tokenColl ? pos.amount + added / unit : r6(pos.amount + added);
    }

    // 5. size, entry, open interest
    if (deltaMicros > 0) {
      pos.entry = sizeBefore === 0 ? price : (s * pos.entry + delta * price) / (s + delta);
      const inc = pos.increased / 1e6; // 0 on the open: a lifecycle's increases start there
      pos.increaseEntry = sizeBefore === 0 ? price : (inc * pos.increaseEntry + delta * price) / (inc + delta);
      pos.increased = (sizeBefore === 0 ? 0 : pos.increased) + deltaMicros;
    }
    pos.size = sizeBefore + deltaMicros;
    if (pos.long) rt.oiLong += deltaMicros;
    else rt.oiShort += deltaMicros;

    const reported = pos.size === 0 ? 0 : Math.round((pos.tokenColl ? pos.amount * p : pos.amount) * 1e6);
    const collDelta = reported - pos.reported;
    pos.reported = reported;

    let type: FillType;
    if (sizeBefore === 0) type = 'open';
    else if (pos.size === 0) type = op.kind === 'liquidate' ? 'liquidation' : 'close';
    else if (deltaMicros !== 0) type = deltaMicros > 0 ? 'increase' : 'decrease';
    else type = collDelta >= 0 ? 'increase' : 'decrease';

    const fill: IncomingFill = {
      protocol: def.protocol,
      time,
      slot: Math.floor((time - SLOT_GENESIS_MS) / SLOT_MS),
      tx: txSignature(this.seed, this.nextTx++),
      event_index: 0,
      position_key: pos.key,
      address: this.addressOf(pos.owner),
      market: def.market,
      market_variant: def.variant,
      side: pos.long ? 'long' : 'short',
      type,
      size_delta_usd: delta,
      position_size_usd: pos.size / 1e6,
      collateral_delta_usd: collDelta / 1e6,
      position_collateral_usd: reported / 1e6,
      price,
      entry_price: pos.increaseEntry,
      pnl_delta_usd: pnl,
      fee_usd: fee,
      borrowing_fee_usd: nullIfZero(borrow),
      funding_fee_usd: nullIfZero(funding),
      liquidation_fee_usd: nullIfZero(liqFee),
      funding_earned_usd: nullIfZero(earned),
      fee_total_usd: r6(fee + borrow + funding + liqFee),
      index_price: p,
      collateral_token: pos.coll,
      position_entry_price: pos.entry,
    };
    this.out.fills.push(fill);
    this.out.positionSnapshots.push(this.snapshot(pos, time, 'event'));
    return fill;
  }

  /** The position's state at `time` re-marked at the current index price. */
  snapshot(pos: Position, time: number, source: 'event' | 'poll'): IncomingPositionSnapshot {
    const def = VARIANTS[pos.v]!;
    const protocol: Protocol = def.protocol;
    const p = this.prices.price[def.assetIdx]!;
    if (pos.size === 0) {
      return {
        time,
        protocol,
        position_key: pos.key,
        size_usd: 0,
        collateral_usd: 0,
        unsettled_borrowing_usd: 0,
        unsettled_funding_usd: 0,
        claimable_funding_usd: 0,
        mark_price: p,
        liquidation_price: null,
        source,
      };
    }
    const rt = this.pools.variants[pos.v]!;
    return {
      time,
      protocol,
      position_key: pos.key,
      size_usd: pos.size / 1e6,
      collateral_usd: pos.tokenColl ? r6(pos.amount * p) : pos.amount,
      unsettled_borrowing_usd: r6(pendingBorrow(rt, pos)),
      unsettled_funding_usd: r6(pendingFunding(rt, pos)),
      claimable_funding_usd: r6(pendingEarned(rt, pos)),
      mark_price: p,
      liquidation_price: liquidationPrice(rt, pos),
      source,
    };
  }
}
