/**
 * Row shapes of the journal (the only truth) and the column lists that write them.
 *
 * A source hands the append path *incoming* rows (no `seq`, no `position_id`); the append path
 * assigns both and writes *journal* rows. Column order here is the Parquet column order, which
 * is a public interface (docs/journal.md): add columns at the end, never reorder.
 *
 * Types: `_usd` amounts are DECIMAL(18,6) in DuckDB and Parquet (exact sums: Σ accounts equals the
 * protocol total to the micro-dollar); prices and rates are DOUBLE (the contract does not round
 * them); times are TIMESTAMP (UTC, microseconds); JS sees times as epoch milliseconds.
 */

import type { ColumnBlock } from './column-block.ts';

export type Protocol = 'alpha' | 'beta';
export const PROTOCOLS: readonly Protocol[] = ['alpha', 'beta'];
export type Side = 'long' | 'short';
export type FillType = 'open' | 'increase' | 'decrease' | 'close' | 'liquidation';
export const FILL_TYPES: readonly FillType[] = ['open', 'increase', 'decrease', 'close', 'liquidation'];
export type SnapshotSource = 'event' | 'poll';
/** Where a market snapshot's index price came from: an oracle account, the latest fill's oracle
 * price (no oracle account readable), or the simulator's own price path. */
export type IndexPriceSource = 'oracle' | 'fill' | 'simulated';
export const INDEX_PRICE_SOURCES: readonly IndexPriceSource[] = ['oracle', 'fill', 'simulated'];

/** One fill as a source produces it: everything but `seq` and `position_id`. */
export interface IncomingFill {
  protocol: Protocol;
  /** epoch milliseconds */
  time: number;
  slot: number;
  tx: string;
  event_index: number;
  /** the on-chain position account (base58); several lifecycles may share it */
  position_key: string;
  address: string;
  market: string;
  market_variant: string | null;
  side: Side;
  type: FillType;
  /** signed: + increase, − decrease; a liquidation carries minus the size it closed */
  size_delta_usd: number;
  position_size_usd: number;
  collateral_delta_usd: number;
  position_collateral_usd: number;
  price: number;
  /** size-weighted average of the lifecycle's increase prices up to and including this fill
   * (contract §6), for every source; not the protocol's own average entry, which weights by the
   * size held and differs once a decrease is followed by an increase */
  entry_price: number;
  pnl_delta_usd: number;
  fee_usd: number;
  borrowing_fee_usd: number | null;
  funding_fee_usd: number | null;
  liquidation_fee_usd: number | null;
  funding_earned_usd: number | null;
  fee_total_usd: number;
  index_price: number;
  /** symbol of the collateral token (e.g. WSOL, USDC): WSOL-like collateral is worth more or
   * less as the price moves, which the liquidation condition must account for */
  collateral_token: string | null;
  /** the position's own average entry price after the fill, as the protocol keeps it (weighted by
   * the size held: a decrease leaves it, an increase averages in by the size before it); what the
   * liquidation condition and realised PnL use, where `entry_price` is the served lifecycle
   * average. On a fill that closes the position, the entry it was closed at. Null when the
   * source cannot know it exactly, and in journals written before the column existed */
  position_entry_price: number | null;
}

/** A fill as stored in the journal. */
export interface Fill extends IncomingFill {
  seq: number;
  position_id: number;
}

export interface MarketSnapshot {
  time: number;
  protocol: Protocol;
  market: string;
  market_variant: string | null;
  index_price: number;
  oi_long_usd: number;
  oi_short_usd: number;
  /** net hourly rate as served (funding − borrowing), + = the side receives */
  funding_rate_long: number;
  funding_rate_short: number;
  /** hourly borrowing rate paid by each side (>= 0) */
  borrowing_rate_long: number;
  borrowing_rate_short: number;
  /** signed funding factor per hour (+ = longs pay) ; 0 for beta */
  funding_rate_raw: number;
  /** cumulative borrowing fee per 1 USD of size, per side, since launch */
  cum_borrowing_long: number;
  cum_borrowing_short: number;
  /** cumulative funding paid / earned per 1 USD of size, per side, since launch */
  cum_funding_paid_long: number;
  cum_funding_paid_short: number;
  cum_funding_earned_long: number;
  cum_funding_earned_short: number;
  /** when the index price was published (epoch ms): the oracle's own timestamp, the fill's time,
   * or the simulated minute; null in journals written before the column existed */
  index_price_time: number | null;
  /** where the index price came from; null in journals written before the column existed */
  index_price_source: IndexPriceSource | null;
}

/** A position snapshot as a source produces it (the append path fills `position_id`). */
export interface IncomingPositionSnapshot {
  time: number;
  protocol: Protocol;
  position_key: string;
  size_usd: number;
  collateral_usd: number;
  unsettled_borrowing_usd: number;
  unsettled_funding_usd: number;
  claimable_funding_usd: number;
  mark_price: number;
  liquidation_price: number | null;
  source: SnapshotSource;
}

export interface PositionSnapshot extends IncomingPositionSnapshot {
  position_id: number;
}

/** What a source hands to the append path in one call. */
export interface IncomingBatch {
  fills: IncomingFill[];
  marketSnapshots: MarketSnapshot[];
  positionSnapshots: IncomingPositionSnapshot[];
  /**
   * Market snapshots in columns (`./column-block.ts`) instead of `marketSnapshots`, which
   * must then be empty: a source in another thread hands millions of them over without a copy.
   */
  marketSnapshotColumns?: ColumnBlock;
  /**
   * Optionally `fills` and `positionSnapshots` once more, as column blocks of the very same rows
   * in the same order (the source guarantees it). When the append path keeps every row in order
   * (no duplicate, no stale or unknown snapshot: a source moving forward), staging copies these
   * columns instead of reading every field of every row.
   */
  mirrors?: { fills: ColumnBlock; positionSnapshots: ColumnBlock };
  /**
   * The source's resume point after this batch (opaque JSON, e.g. `{ slot }`). Stored in the
   * journal checkpoint in the same commit as the batch's files.
   */
  checkpoint?: unknown;
}

/** DuckDB column types, in Parquet column order, for each journal kind. */
export const FILL_COLUMNS = [
  ['seq', 'BIGINT'],
  ['protocol', 'VARCHAR'],
  ['time', 'TIMESTAMP'],
  ['slot', 'BIGINT'],
  ['tx', 'VARCHAR'],
  ['event_index', 'INTEGER'],
  ['position_key', 'VARCHAR'],
  ['position_id', 'BIGINT'],
  ['address', 'VARCHAR'],
  ['market', 'VARCHAR'],
  ['market_variant', 'VARCHAR'],
  ['side', 'VARCHAR'],
  ['type', 'VARCHAR'],
  ['size_delta_usd', 'DECIMAL(18,6)'],
  ['position_size_usd', 'DECIMAL(18,6)'],
  ['collateral_delta_usd', 'DECIMAL(18,6)'],
  ['position_collateral_usd', 'DECIMAL(18,6)'],
  ['price', 'DOUBLE'],
  ['entry_price', 'DOUBLE'],
  ['pnl_delta_usd', 'DECIMAL(18,6)'],
  ['fee_usd', 'DECIMAL(18,6)'],
  ['borrowing_fee_usd', 'DECIMAL(18,6)'],
  ['funding_fee_usd', 'DECIMAL(18,6)'],
  ['liquidation_fee_usd', 'DECIMAL(18,6)'],
  ['funding_earned_usd', 'DECIMAL(18,6)'],
  ['fee_total_usd', 'DECIMAL(18,6)'],
  ['index_price', 'DOUBLE'],
  ['collateral_token', 'VARCHAR'],
  // added later: older files lack it, so every reader of fill files reads by name
  // (`union_by_name = true`) and sees null there
  ['position_entry_price', 'DOUBLE'],
] as const;

export const MARKET_SNAPSHOT_COLUMNS = [
  ['time', 'TIMESTAMP'],
  ['protocol', 'VARCHAR'],
  ['market', 'VARCHAR'],
  ['market_variant', 'VARCHAR'],
  ['index_price', 'DOUBLE'],
  ['oi_long_usd', 'DECIMAL(18,6)'],
  ['oi_short_usd', 'DECIMAL(18,6)'],
  ['funding_rate_long', 'DOUBLE'],
  ['funding_rate_short', 'DOUBLE'],
  ['borrowing_rate_long', 'DOUBLE'],
  ['borrowing_rate_short', 'DOUBLE'],
  ['funding_rate_raw', 'DOUBLE'],
  ['cum_borrowing_long', 'DOUBLE'],
  ['cum_borrowing_short', 'DOUBLE'],
  ['cum_funding_paid_long', 'DOUBLE'],
  ['cum_funding_paid_short', 'DOUBLE'],
  ['cum_funding_earned_long', 'DOUBLE'],
  ['cum_funding_earned_short', 'DOUBLE'],
  // added later: older files lack them, so every reader of these files reads by name
  // (`union_by_name = true`) and sees nulls there
  ['index_price_time', 'TIMESTAMP'],
  ['index_price_source', 'VARCHAR'],
] as const;

export const POSITION_SNAPSHOT_COLUMNS = [
  ['time', 'TIMESTAMP'],
  ['protocol', 'VARCHAR'],
  ['position_id', 'BIGINT'],
  ['position_key', 'VARCHAR'],
  ['size_usd', 'DECIMAL(18,6)'],
  ['collateral_usd', 'DECIMAL(18,6)'],
  ['unsettled_borrowing_usd', 'DECIMAL(18,6)'],
  ['unsettled_funding_usd', 'DECIMAL(18,6)'],
  ['claimable_funding_usd', 'DECIMAL(18,6)'],
  ['mark_price', 'DOUBLE'],
  ['liquidation_price', 'DOUBLE'],
  ['source', 'VARCHAR'],
] as const;

export type JournalKind = 'fills' | 'market_snapshots' | 'position_snapshots';

export const COLUMNS_OF: Record<JournalKind, readonly (readonly [string, string])[]> = {
  fills: FILL_COLUMNS,
  market_snapshots: MARKET_SNAPSHOT_COLUMNS,
  position_snapshots: POSITION_SNAPSHOT_COLUMNS,
};
