/** What the one append path tells those who listen to it: the appends it committed and the changes to derived buckets. */
import type { Row } from '../db/database.ts';
import type { Fill, IncomingBatch } from '../journal/rows.ts';

/**
 * Hears of each committed append: its new fills; when someone watches them
 * (AppendPath.watchAlphaAccounts, server/ingest/append.ts) and there are few enough, the alpha accounts it changed
 * in the API's Account shape (undefined otherwise: read them from the derived state); and the
 * span of time its fills and market snapshots cover (null when it had neither: snapshots of
 * positions alone, or nothing new).
 */
export type AppendListener = (fills: readonly Fill[], alphaAccounts: readonly Row[] | undefined, change: DerivedChange | null) => void;

/**
 * A committed write that may have changed derived buckets: the span of time it touched (epoch ms,
 * inclusive; an append's fills and market snapshots, or a job's recomputed days), and whether market
 * snapshots were among what changed. The rollups follow fills and snapshots; the buckets derived
 * from market snapshots alone (snapshot OI, funding) change only when `marketSnapshots` is true, so
 * their readers can ignore the fills-only appends that come every second or two in live mode.
 */
export interface DerivedChange {
  fromMs: number;
  toMs: number;
  marketSnapshots: boolean;
  /** an append's own change (its listeners hear of the same append next), not a job's */
  append?: boolean;
  /** an append's change: the fills it committed (every fill of the change; none for a batch of
   * market snapshots alone), for in-memory copies that can add them instead of reading again */
  fills?: readonly Fill[];
}

export type DerivedChangeListener = (change: DerivedChange) => void;

/** The change of a batch's fills and market snapshots (null when it has neither). */
export function changeOf(fills: readonly Fill[], batch: IncomingBatch): DerivedChange | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const f of fills) {
    if (f.time < lo) lo = f.time;
    if (f.time > hi) hi = f.time;
  }
  for (const s of batch.marketSnapshots) {
    if (s.time < lo) lo = s.time;
    if (s.time > hi) hi = s.time;
  }
  const times = batch.marketSnapshotColumns?.columns.time;
  if (times instanceof Float64Array) {
    for (const t of times) {
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  const marketSnapshots = batch.marketSnapshots.length > 0 || (batch.marketSnapshotColumns?.length ?? 0) > 0;
  return lo <= hi ? { fromMs: lo, toMs: hi, marketSnapshots, append: true, fills } : null;
}
