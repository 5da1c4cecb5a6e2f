/**
 * Runtime shapes shared by the simulator's modules. All are plain JSON-able objects: the saved
 * state is made of them (see state.ts).
 */

/** One lifecycle of an on-chain position (a reopened key gets a new Position with a new id). */
export interface Position {
  /** lifecycle number, unique and increasing: the deterministic processing order */
  id: number;
  /** on-chain position account (deterministic from owner, variant, collateral token, side) */
  key: string;
  /** trader index */
  owner: number;
  /** variant index into VARIANTS */
  v: number;
  long: boolean;
  /** collateral token symbol */
  coll: string;
  /** collateral held in index-token units (its USD value moves with the price) */
  tokenColl: boolean;
  /** size in micro-USD (an integer, so OI sums are exact) */
  size: number;
  /** collateral amount: USD rounded to 1e-6, or index-token units when `tokenColl` */
  amount: number;
  /** position_collateral_usd of the last fill, in micro-USD (the collateral chain) */
  reported: number;
  /** the position's own average entry price, as the protocol keeps it: weighted by the size held
   * (a decrease leaves it, an increase averages in by the size before it); realised PnL and the
   * liquidation condition use it */
  entry: number;
  /** Σ size of the lifecycle's increases (the open included), micro-USD */
  increased: number;
  /** size-weighted average price of the lifecycle's increases: the fill's served `entry_price`
   * (shared/design/contract.md §6); differs from `entry` after a decrease followed by an increase */
  increaseEntry: number;
  /** cumulative borrowing / funding paid / funding earned per USD of size at the last settlement */
  cumB: number;
  cumFP: number;
  cumFE: number;
  /** leverage the trader aims for on this lifecycle */
  lev: number;
  openedAt: number;
  /** liquidation prefilter bound, valid until the keeper's next full pass (see keeper.ts) */
  bound: number;
  /** position in its variant's long or short list (runtime only, rebuilt on restore) */
  listIdx: number;
}

/** Per-variant market state (alpha pool or beta market). */
export interface VariantRuntime {
  /** open interest in micro-USD (integers) */
  oiLong: number;
  oiShort: number;
  /** cumulative factors per 1 USD of size */
  cumBL: number;
  cumBS: number;
  cumFPL: number;
  cumFPS: number;
  cumFEL: number;
  cumFES: number;
  /** hourly rates in force: borrowing paid (>= 0) and funding (signed, + = the side receives) */
  rBL: number;
  rBS: number;
  rFL: number;
  rFS: number;
  /** signed funding factor per hour (+ = longs pay); 0 for beta */
  raw: number;
  /** alpha: pool value in USD (liquidity providers follow demand); beta: unused */
  pool: number;
  /** liquidation prefilter: highest projected liquidation price of a long, lowest of a short */
  boundL: number;
  boundS: number;
}

/** A beta custody: owned amount (tokens for SOL/ETH/BTC, USD for USDC) and its borrow index. */
export interface CustodyRuntime {
  owned: number;
  cum: number;
  /** hourly borrow rate in force */
  rate: number;
}

/** Sentinels for "no bound" in the JSON state (Infinity does not survive JSON). */
export const NO_LONG_BOUND = -1e300;
export const NO_SHORT_BOUND = 1e300;
