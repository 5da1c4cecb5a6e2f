/**
 * Endpoint 15's lifecycles that the lifecycle store does not hold yet (issue 7): the alpha lifecycles
 * closed after the store's mark (at most ~20,000 between two of its segments), with their sort keys
 * and record documents, in memory by address.
 *
 * Never stale, as the open-position set: every append moves the generation, and the next read first
 * adds the lifecycles closed since what it holds (sql/api/alpha-closed-after.sql reads them and the
 * watermark they are complete up to in one statement). A closed lifecycle never changes, so what
 * was read stays right; lifecycles the store has since taken in are dropped as its mark moves.
 *
 * It starts at the store's mark when first read. It cannot answer (null: the route reads DuckDB)
 * while the store is empty, when it started above the store's mark (a store started again from
 * nothing), or when more than {@link ClosedTailOptions.cap} lifecycles lie after the mark (a store
 * that could not be extended): it then starts again, at the store's mark, at the next generation.
 */
import type { Service } from '../service.ts';
import type { StoreView } from './lifecycle-store.ts';

/** One closed lifecycle: endpoint 15's keys and the record document (sql/store/account-docs.sql's columns). */
export interface TailLifecycle {
  id: number;
  variant: string;
  market: string;
  opened: number;
  closed: number;
  /** NaN for NULL */
  size: number;
  pnl: number;
  leverage: number;
  lastSeq: number;
  doc: string;
}

/** What one read sees: the lifecycles closed in (from, upTo]. */
export interface TailView {
  readonly from: number;
  readonly upTo: number;
  /** the closed lifecycles of `address` with `after` < last seq <= upTo */
  of(address: string, after: number): TailLifecycle[];
}

export interface ClosedTailOptions {
  /** the most lifecycles held (default 50,000: ~40 MB; a segment is added every ~20,000) */
  cap?: number;
}

class Held implements TailView {
  readonly byAddress = new Map<string, TailLifecycle[]>();
  count = 0;

  constructor(readonly from: number, public upTo: number) {}

  of(address: string, after: number): TailLifecycle[] {
    const upTo = this.upTo; // lifecycles added by a later generation are not this read's
    return (this.byAddress.get(address) ?? []).filter((l) => l.lastSeq > after && l.lastSeq <= upTo);
  }

  /** Drops what the store holds now (at or before its mark). */
  trim(mark: number): void {
    for (const [address, list] of this.byAddress) {
      const kept = list.filter((l) => l.lastSeq > mark);
      this.count -= list.length - kept.length;
      if (kept.length === 0) this.byAddress.delete(address);
      else if (kept.length !== list.length) this.byAddress.set(address, kept);
    }
  }
}

/** See the file comment. One per route list. */
export class ClosedTail {
  private generation = 0;
  private held: Held | null = null;
  private loaded: { generation: number; view: Promise<TailView | null> } | null = null;
  /** reads one after another: each starts where the one before ended */
  private reading: Promise<unknown> = Promise.resolve();
  private following = false;
  private trimmedAt = 0;
  /** the store's mark when the tail last had more than the cap (no new try before it moves) */
  private overflowAt = -1;
  /** moved when what is held is dropped: a read begun before must not bring it back */
  private restarts = 0;
  private readonly cap: number;

  constructor(private readonly service: Service, opts: ClosedTailOptions = {}) {
    this.cap = opts.cap ?? 50_000;
  }

  /** The lifecycles closed after `store`'s mark, up to the current generation; null when they cannot be held. */
  at(store: StoreView): Promise<TailView | null> {
    if (!this.following) {
      this.following = true;
      this.service.onAppend(() => {
        this.generation += 1;
      });
    }
    if (store.mark === 0 || store.mark === this.overflowAt) return Promise.resolve(null);
    if (this.held && this.held.from > store.mark) { // the store started again
      this.held = null;
      this.loaded = null;
      this.trimmedAt = 0;
      this.restarts += 1;
    }
    if (this.held && store.mark > this.trimmedAt) {
      this.held.trim(store.mark);
      this.trimmedAt = store.mark;
    }
    if (this.loaded?.generation !== this.generation) {
      const mark = store.mark;
      const view = this.reading.then(() => this.readMore(mark));
      this.reading = view.catch(() => undefined);
      this.loaded = { generation: this.generation, view };
      view.catch(() => {
        if (this.loaded?.view === view) this.loaded = null; // the next read tries again
      });
    }
    return this.loaded!.view;
  }

  /** Adds the lifecycles closed after what is held (from `mark` when nothing is). */
  private async readMore(mark: number): Promise<TailView | null> {
    if (!this.held && mark === this.overflowAt) return null; // queued before the overflow was known
    const held = this.held ?? new Held(mark, mark);
    const restarts = this.restarts;
    const room = this.cap - held.count;
    const rows = await this.service.db.query('api/alpha-closed-after', { after: held.upTo, limit: room });
    const closed = rows.filter((r) => r.position_id !== null);
    if (restarts !== this.restarts) return null; // dropped meanwhile (the route reads DuckDB this once)
    if (closed.length > room) {
      // too many: DuckDB answers until the store's mark moves, then the tail starts again there
      this.held = null;
      this.loaded = null;
      this.overflowAt = mark;
      return null;
    }
    for (const r of closed) {
      const address = r.address as string;
      const l: TailLifecycle = {
        id: r.position_id as number, variant: r.market_variant as string, market: r.market as string,
        opened: r.opened_us as number, closed: r.closed_us as number, size: (r.max_size_usd as number | null) ?? NaN,
        pnl: r.net_pnl_usd as number, leverage: r.max_leverage as number, lastSeq: r.last_seq as number, doc: r.doc as string,
      };
      const list = held.byAddress.get(address);
      if (list) list.push(l);
      else held.byAddress.set(address, [l]);
      held.count += 1;
    }
    held.upTo = Math.max(held.upTo, rows[0]!.watermark as number);
    this.held = held;
    return held;
  }
}
