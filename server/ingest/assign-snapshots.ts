import type { Writer } from '../db/writer.ts';
import type { Fill, IncomingPositionSnapshot, PositionSnapshot } from '../journal/rows.ts';
import { log } from '../lib/log.ts';
import type { LifecycleDraft } from './lifecycle-index.ts';

/** The last of time-ordered fills with time <= t (binary search: a key may have thousands). */
function lastAtOrBefore(fills: readonly Fill[], t: number): Fill | undefined {
  let lo = 0;
  let hi = fills.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (fills[mid]!.time <= t) lo = mid + 1;
    else hi = mid;
  }
  return fills[lo - 1];
}

/**
 * Gives each position snapshot its lifecycle: that of the key's latest fill in this batch at or
 * before the snapshot's time (so a snapshot taken right after a close belongs to the lifecycle
 * that close ended), else the key's lifecycle before this batch (`before`, an empty draft of the
 * index, which may query the derived state). Snapshots of positions the
 * journal has never seen are dropped with a warning. Sets `position_id` on the rows themselves.
 */
export async function assignSnapshots(w: Writer, snapshots: readonly IncomingPositionSnapshot[], fills: readonly Fill[], before: LifecycleDraft): Promise<PositionSnapshot[]> {
  const fillsByKey = { alpha: new Map<string, Fill[]>(), beta: new Map<string, Fill[]>() };
  for (const f of fills) {
    const list = fillsByKey[f.protocol].get(f.position_key);
    if (list) list.push(f);
    else fillsByKey[f.protocol].set(f.position_key, [f]);
  }
  const ids = snapshots.map((s) => {
    const keyFills = fillsByKey[s.protocol].get(s.position_key);
    const id = keyFills ? lastAtOrBefore(keyFills, s.time)?.position_id : undefined;
    return id ?? before.knownLifecycle(s.protocol, s.position_key);
  });
  // known in memory almost always; the rest (e.g. the snapshots a restart re-sends, of positions
  // closed since) by one query for the batch
  const missing = new Map<string, IncomingPositionSnapshot>();
  snapshots.forEach((s, i) => ids[i] === undefined && missing.set(`${s.protocol}:${s.position_key}`, s));
  const fromState = await before.lifecyclesOfSnapshots(w, [...missing.values()]);
  const out: PositionSnapshot[] = [];
  for (const [i, s] of snapshots.entries()) {
    const id = ids[i] ?? fromState.get(`${s.protocol}:${s.position_key}`);
    if (id === undefined) {
      log.warn(`append: dropping a ${s.source} snapshot of unknown position ${s.position_key}`);
      continue;
    }
    (s as PositionSnapshot).position_id = id;
    out.push(s as PositionSnapshot);
  }
  return out;
}
