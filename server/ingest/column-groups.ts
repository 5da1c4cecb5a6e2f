/**
 * A group of source batches as column blocks: how the simulator's worker hands rows to the main
 * thread (packed there, see server/sources/simulate/worker.ts) and how the append path takes them
 * back (rows decoded from the columns, the columns kept as mirrors for staging). The append
 * benchmark uses the same two steps, so it measures exactly the backfill's path.
 */
import { FILL_COLUMNS, MARKET_SNAPSHOT_COLUMNS, POSITION_SNAPSHOT_COLUMNS, type IncomingBatch } from '../journal/rows.ts';
import { concatBlocks, fillsOf, positionSnapshotsOf, toColumns, type ColumnBlock } from './columns.ts';

/** The columns a source's rows carry: the append path assigns `seq` and `position_id`. */
const FILL_IN = FILL_COLUMNS.filter(([n]) => n !== 'seq' && n !== 'position_id');
const POSITION_SNAPSHOT_IN = POSITION_SNAPSHOT_COLUMNS.filter(([n]) => n !== 'position_id');

/** One group's rows, a column block per kind. */
export interface ColumnGroup {
  fills: ColumnBlock;
  marketSnapshots: ColumnBlock;
  positionSnapshots: ColumnBlock;
}

/** Packs source batches (e.g. a simulator's days, in order) into one group of column blocks.
 * Market snapshots a batch already has in columns are taken as they are (after its rows, the
 * order the append path stages them in). */
export function packBatches(parts: readonly IncomingBatch[]): ColumnGroup {
  const markets = parts.flatMap((b) => {
    const blocks = b.marketSnapshots.length ? [toColumns(b.marketSnapshots, MARKET_SNAPSHOT_COLUMNS)] : [];
    return b.marketSnapshotColumns?.length ? [...blocks, b.marketSnapshotColumns] : blocks;
  });
  return {
    fills: toColumns(
      parts.map((b) => b.fills),
      FILL_IN,
      true,
    ),
    marketSnapshots: markets.length ? concatBlocks(markets) : toColumns([], MARKET_SNAPSHOT_COLUMNS),
    positionSnapshots: toColumns(
      parts.map((b) => b.positionSnapshots),
      POSITION_SNAPSHOT_IN,
      true,
    ),
  };
}

/** How many rows a source batch holds, its column-held market snapshots included. */
export function rowsOf(b: IncomingBatch): number {
  return b.fills.length + b.marketSnapshots.length + (b.marketSnapshotColumns?.length ?? 0) + b.positionSnapshots.length;
}

/** Joins consecutive groups (e.g. days packed one by one) into one, in order. */
export function concatGroups(groups: readonly ColumnGroup[]): ColumnGroup {
  return {
    fills: concatBlocks(groups.map((g) => g.fills)),
    marketSnapshots: concatBlocks(groups.map((g) => g.marketSnapshots)),
    positionSnapshots: concatBlocks(groups.map((g) => g.positionSnapshots)),
  };
}

/** The batch the append path takes for a group: fill and position-snapshot rows decoded from
 * their columns (dedup and ids need objects) with the columns as mirrors; market snapshots stay
 * columns. */
export function batchOfGroup(group: ColumnGroup, checkpoint?: unknown): IncomingBatch {
  const batch: IncomingBatch = {
    fills: fillsOf(group.fills),
    marketSnapshots: [],
    marketSnapshotColumns: group.marketSnapshots,
    positionSnapshots: positionSnapshotsOf(group.positionSnapshots),
    mirrors: { fills: group.fills, positionSnapshots: group.positionSnapshots },
  };
  if (checkpoint !== undefined) batch.checkpoint = checkpoint;
  return batch;
}
