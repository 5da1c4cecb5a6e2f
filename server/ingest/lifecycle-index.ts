import type { Writer } from '../db/writer.ts';
import { log } from '../lib/log.ts';
import type { IncomingFill } from '../journal/rows.ts';

/** Maps per protocol, keyed by the position account itself: no per-lookup string building. */
class PerProtocol<V> {
  private readonly maps = new Map<string, Map<string, V>>();
  of(protocol: string): Map<string, V> {
    let m = this.maps.get(protocol);
    if (!m) this.maps.set(protocol, (m = new Map()));
    return m;
  }
  *entries(): Generator<[string, string, V]> {
    for (const [p, m] of this.maps) for (const [k, v] of m) yield [p, k, v];
  }
}

/** How many ended lifecycles to remember per key without asking the database. */
const RECENT_LIMIT = 50_000;

/**
 * Which lifecycle (`position_id`) an on-chain position account is in. The append path assigns
 * ids with it: an `open` fill starts a new lifecycle, every other fill joins the open one, a
 * terminal fill ends it. Assignment happens in a {@link LifecycleDraft} that is merged only
 * after the batch is durably committed, so a failed commit leaves the index untouched.
 */
export class LifecycleIndex {
  private readonly open = new PerProtocol<number>();
  private readonly recent = new PerProtocol<number>();
  private recentCount = 0;

  private constructor(public nextId: number) {}

  /** Loads the open lifecycles from the derived state. */
  static async load(w: Writer, nextId: number): Promise<LifecycleIndex> {
    const index = new LifecycleIndex(nextId);
    for (const r of await w.run('ingest/open-lifecycles')) {
      index.open.of(r.protocol as string).set(r.position_key as string, r.position_id as number);
    }
    return index;
  }

  draft(): LifecycleDraft {
    return new LifecycleDraft(this);
  }

  /** @internal the open lifecycle of a key, if any */
  openOf(protocol: string, key: string): number | undefined {
    return this.open.of(protocol).get(key);
  }

  /** @internal the most recent lifecycle of a key known without a query */
  lastOf(protocol: string, key: string): number | undefined {
    return this.open.of(protocol).get(key) ?? this.recent.of(protocol).get(key);
  }

  /** Applies a committed draft. */
  merge(d: LifecycleDraft): void {
    for (const [protocol, key, id] of d.changes.entries()) {
      if (id.open) this.open.of(protocol).set(key, id.id);
      else {
        this.open.of(protocol).delete(key);
        const recent = this.recent.of(protocol);
        if (!recent.delete(key)) this.recentCount++;
        recent.set(key, id.id);
      }
    }
    // forget ended lifecycles wholesale past the limit: a miss only costs one query
    if (this.recentCount > RECENT_LIMIT) {
      for (const [p] of this.recent.entries()) this.recent.of(p).clear();
      this.recentCount = 0;
    }
    this.nextId = d.nextId;
  }
}

/** Lifecycle assignments for one batch, not yet visible in the index. */
export class LifecycleDraft {
  readonly changes = new PerProtocol<{ id: number; open: boolean }>();
  nextId: number;

  constructor(private readonly index: LifecycleIndex) {
    this.nextId = index.nextId;
  }

  private openOf(protocol: string, key: string): number | undefined {
    const c = this.changes.of(protocol).get(key);
    return c ? (c.open ? c.id : undefined) : this.index.openOf(protocol, key);
  }

  /** Returns the `position_id` of a fill, starting or ending lifecycles as its type says. */
  assign(fill: IncomingFill): number {
    let id = this.openOf(fill.protocol, fill.position_key);
    if (fill.type === 'open' || id === undefined) {
      if (id !== undefined) log.warn(`append: 'open' fill ${fill.tx}#${fill.event_index} on a position whose lifecycle ${id} never ended; starting a new one`);
      else if (fill.type !== 'open') log.warn(`append: '${fill.type}' fill ${fill.tx}#${fill.event_index} with no open lifecycle; starting one`);
      id = this.nextId++;
    }
    const ends = fill.type === 'close' || fill.type === 'liquidation';
    this.changes.of(fill.protocol).set(fill.position_key, { id, open: !ends });
    return id;
  }

  /** The lifecycle a position snapshot taken now belongs to when it is known without a query. */
  knownLifecycle(protocol: string, positionKey: string): number | undefined {
    return this.changes.of(protocol).get(positionKey)?.id ?? this.index.lastOf(protocol, positionKey);
  }

  /**
   * The lifecycles position snapshots taken now belong to, for keys {@link knownLifecycle} does
   * not know: each key's latest one in the derived state, by one query for all of them. Keys in
   * the result as `${protocol}:${position_key}`; a key the state has never seen is missing.
   */
  async lifecyclesOfSnapshots(w: Writer, keys: readonly { protocol: string; position_key: string }[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (keys.length === 0) return found;
    const json = JSON.stringify(keys.map(({ protocol, position_key }) => ({ protocol, position_key })));
    for (const r of await w.run('ingest/last-lifecycles', { keys: json })) found.set(`${r.protocol as string}:${r.position_key as string}`, r.id as number);
    return found;
  }
}
