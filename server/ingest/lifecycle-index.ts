import type { Writer } from '../db/database.ts';
import { log } from '../log.ts';
import type { IncomingFill } from '../journal/rows.ts';

const keyOf = (protocol: string, positionKey: string): string => `${protocol}|${positionKey}`;

/** How many ended lifecycles to remember per key without asking the database. */
const RECENT_LIMIT = 50_000;

/**
 * Which lifecycle (`position_id`) an on-chain position account is in. The append path assigns
 * ids with it: an `open` fill starts a new lifecycle, every other fill joins the open one, a
 * terminal fill ends it. Assignment happens in a {@link LifecycleDraft} that is merged only
 * after the batch is durably committed, so a failed commit leaves the index untouched.
 */
export class LifecycleIndex {
  private readonly open = new Map<string, number>();
  private readonly recent = new Map<string, number>();

  private constructor(public nextId: number) {}

  /** Loads the open lifecycles from the derived state. */
  static async load(w: Writer, nextId: number): Promise<LifecycleIndex> {
    const index = new LifecycleIndex(nextId);
    for (const r of await w.run('ingest/open-lifecycles')) {
      index.open.set(keyOf(r.protocol as string, r.position_key as string), r.position_id as number);
    }
    return index;
  }

  draft(): LifecycleDraft {
    return new LifecycleDraft(this);
  }

  /** @internal the open lifecycle of a key, if any */
  openOf(key: string): number | undefined {
    return this.open.get(key);
  }

  /** @internal the most recent lifecycle of a key known without a query */
  lastOf(key: string): number | undefined {
    return this.open.get(key) ?? this.recent.get(key);
  }

  /** Applies a committed draft. */
  merge(d: LifecycleDraft): void {
    for (const [key, id] of d.changes) {
      if (id.open) this.open.set(key, id.id);
      else {
        this.open.delete(key);
        this.recent.delete(key);
        this.recent.set(key, id.id);
        if (this.recent.size > RECENT_LIMIT) this.recent.delete(this.recent.keys().next().value as string);
      }
    }
    this.nextId = d.nextId;
  }
}

/** Lifecycle assignments for one batch, not yet visible in the index. */
export class LifecycleDraft {
  readonly changes = new Map<string, { id: number; open: boolean }>();
  nextId: number;

  constructor(private readonly index: LifecycleIndex) {
    this.nextId = index.nextId;
  }

  private openOf(key: string): number | undefined {
    const c = this.changes.get(key);
    return c ? (c.open ? c.id : undefined) : this.index.openOf(key);
  }

  /** Returns the `position_id` of a fill, starting or ending lifecycles as its type says. */
  assign(fill: IncomingFill): number {
    const key = keyOf(fill.protocol, fill.position_key);
    let id = this.openOf(key);
    if (fill.type === 'open' || id === undefined) {
      if (id !== undefined) log.warn(`append: 'open' fill ${fill.tx}#${fill.event_index} on a position whose lifecycle ${id} never ended; starting a new one`);
      else if (fill.type !== 'open') log.warn(`append: '${fill.type}' fill ${fill.tx}#${fill.event_index} with no open lifecycle; starting one`);
      id = this.nextId++;
    }
    const ends = fill.type === 'close' || fill.type === 'liquidation';
    this.changes.set(key, { id, open: !ends });
    return id;
  }

  /** The lifecycle a position snapshot taken now belongs to: the key's open or latest one. */
  async lifecycleOfSnapshot(w: Writer, protocol: string, positionKey: string): Promise<number | undefined> {
    const key = keyOf(protocol, positionKey);
    const known = this.changes.get(key)?.id ?? this.index.lastOf(key);
    if (known !== undefined) return known;
    const rows = await w.run('ingest/last-lifecycle', { protocol, position_key: positionKey });
    return (rows[0]?.id as number | null) ?? undefined;
  }
}
