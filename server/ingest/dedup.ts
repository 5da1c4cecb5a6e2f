import type { Writer } from '../db/writer.ts';
import type { IncomingFill, IncomingPositionSnapshot, Protocol } from '../journal/rows.ts';
import { stageRows } from '../journal/stage.ts';

/** Journal order: by time; fills of the same instant keep the source's order (stable sort). */
const byTime = (a: IncomingFill, b: IncomingFill): number => a.time - b.time;

/**
 * Fill dedup on (protocol, tx, event_index). A duplicate has the same tx, hence the same slot,
 * so only fills at or below the highest journaled slot of their protocol can already be in the
 * journal: only those ("suspects") are looked up in the derived `fills` table — none for a
 * source that moves forward. Repeats within a batch are found by tx in memory.
 */
export class FillDedup {
  private constructor(private readonly maxSlot: Record<Protocol, number>) {}

  static async load(w: Writer): Promise<FillDedup> {
    const maxSlot: Record<Protocol, number> = { alpha: -1, beta: -1 };
    for (const r of await w.run('ingest/max-slots')) maxSlot[r.protocol as Protocol] = r.slot as number;
    return new FillDedup(maxSlot);
  }

  /** The fills that are new, sorted by time, and how many were dropped. */
  async filter(w: Writer, incoming: readonly IncomingFill[]): Promise<{ fresh: IncomingFill[]; duplicates: number }> {
    const drop = new Set<number>();
    // events seen per tx: a number for the first (the common case: no array per fill), a list after
    const seen = { alpha: new Map<string, number | number[]>(), beta: new Map<string, number | number[]>() };
    const suspects: (IncomingFill & { ord_row: number })[] = [];
    for (let i = 0; i < incoming.length; i++) {
      const f = incoming[i]!;
      const map = seen[f.protocol];
      const events = map.get(f.tx);
      if (events === undefined) map.set(f.tx, f.event_index);
      else if (events === f.event_index || (Array.isArray(events) && events.includes(f.event_index))) drop.add(i);
      else if (Array.isArray(events)) events.push(f.event_index);
      else map.set(f.tx, [events, f.event_index]);
      if (f.slot <= this.maxSlot[f.protocol]) suspects.push({ ...f, ord_row: i });
    }
    if (suspects.length) {
      await stageRows(w.connection, 'batch_keys', suspects);
      for (const r of await w.run('derive/existing-keys')) drop.add(r.ord_row as number);
    }
    const fresh = drop.size ? incoming.filter((_, i) => !drop.has(i)) : incoming.slice();
    // a source moving forward hands rows over in time order already: check (one pass) before sorting
    let sorted = true;
    for (let i = 1; sorted && i < fresh.length; i++) sorted = fresh[i - 1]!.time <= fresh[i]!.time;
    return { fresh: sorted ? fresh : fresh.sort(byTime), duplicates: drop.size };
  }

  /** Raises the watermark past fills just committed. */
  committed(fills: readonly IncomingFill[]): void {
    for (const f of fills) if (f.slot > this.maxSlot[f.protocol]) this.maxSlot[f.protocol] = f.slot;
  }
}

/** A fill's or an event snapshot's position and instant: what ties an event snapshot to its fill. */
const instantOf = (r: { protocol: Protocol; position_key: string; time: number }): string => `${r.protocol}|${r.position_key}|${r.time}`;

/**
 * The dedup key of an event position snapshot is the fill it was written with: the source emits it
 * with that fill (same protocol, position and instant), so when every fill of the batch at its
 * position and instant was dropped as a duplicate, the snapshot is already in the journal too and
 * is dropped here. Polls, and event snapshots without a fill in the batch, are checked against the
 * journal's kept latest snapshot instead (sql/ingest/drop-stale-position-snapshots.sql).
 */
export function dropSnapshotsOfDuplicateFills(snapshots: readonly IncomingPositionSnapshot[], incoming: readonly IncomingFill[], fresh: readonly IncomingFill[]): readonly IncomingPositionSnapshot[] {
  if (fresh.length === incoming.length) return snapshots;
  const kept = new Set(fresh);
  const freshInstants = new Set(fresh.map(instantOf));
  const duplicateInstants = new Set<string>();
  for (const f of incoming) if (!kept.has(f)) duplicateInstants.add(instantOf(f));
  for (const k of freshInstants) duplicateInstants.delete(k);
  if (duplicateInstants.size === 0) return snapshots;
  return snapshots.filter((s) => s.source !== 'event' || !duplicateInstants.has(instantOf(s)));
}
