/**
 * `GET /v1/{protocol}/accounts/{address}/history`'s lifecycles that the lifecycle store does not hold yet: one protocol's
 * lifecycles closed after its store's mark (at most ~20,000 between two of its segments), with their sort keys
 * and record documents, in memory by address.
 *
 * Never stale, as the open-position set: every append moves the generation, and the next read first
 * adds the lifecycles closed since what it holds (sql/read/lifecycles/alpha-closed-after.sql reads them and the
 * watermark they are complete up to in one statement). A closed lifecycle never changes, so what
 * was read stays right; lifecycles the store has since taken in are dropped as its mark moves.
 *
 * It starts at the store's mark when first read, and serves an address's lifecycles in the layout of
 * the store's account files (an {@link AccountRun}), so `GET /v1/alpha/accounts/{address}/history`
 * treats it as one more run. It cannot answer (null: the route reads DuckDB) while the store is empty,
 * or when more than {@link ClosedTailOptions.cap} lifecycles lie after the mark (a store that could not
 * be extended): it then starts again at the store's next mark.
 */
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { KEY_WIDTH, VariantCodes, setKeyRow, type AccountRun } from './lifecycle-accounts.ts';
import type { StoreView } from './lifecycle-view.ts';

/** One closed lifecycle: its key row (the account files' layout) and record document. */
interface TailLifecycle {
  row: number[];
  lastSeq: number;
  doc: string;
}

/** What one read sees: the lifecycles closed in (from, upTo]. */
export interface TailView {
  readonly from: number;
  readonly upTo: number;
  /** the closed lifecycles of `address` with `after` < last seq <= upTo, if it has any */
  of(address: string, after: number): AccountRun | undefined;
}

export interface ClosedTailOptions {
  /** the most lifecycles held (default 50,000: ~40 MB; a segment is added every ~20,000) */
  cap?: number;
}

class Held implements TailView {
  readonly byAddress = new Map<string, TailLifecycle[]>();
  /** the variant codes of the key rows, as an account file's */
  readonly variants = new VariantCodes();
  count = 0;

  constructor(
    readonly from: number,
    public upTo: number,
  ) {}

  of(address: string, after: number): AccountRun | undefined {
    const upTo = this.upTo; // lifecycles added by a later generation are not this read's
    const kept = (this.byAddress.get(address) ?? []).filter((l) => l.lastSeq > after && l.lastSeq <= upTo);
    if (kept.length === 0) return undefined;
    // no end row: an account file's last row only bounds its records, which a tail run hands out directly
    const keys = new Float64Array(kept.length * KEY_WIDTH);
    kept.forEach((l, i) => keys.set(l.row, i * KEY_WIDTH));
    return { keys, count: kept.length, variants: this.variants.list, records: async (rows) => rows.map((r) => kept[r]!.doc) };
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

/** See the file comment. One per route list and protocol. */
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
  private readonly cap: number;

  constructor(
    private readonly service: Service,
    opts: ClosedTailOptions = {},
    readonly protocol: Protocol = 'alpha',
  ) {
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
    const room = this.cap - held.count;
    const rows = await this.service.db.query('read/lifecycles/alpha-closed-after', { protocol: this.protocol, after: held.upTo, limit: room });
    const closed = rows.filter((r) => r.position_id !== null);
    if (closed.length > room) {
      // too many: DuckDB answers until the store's mark moves, then the tail starts again there
      this.held = null;
      this.loaded = null;
      this.overflowAt = mark;
      return null;
    }
    for (const r of closed) {
      const address = r.address as string;
      const row = new Array<number>(KEY_WIDTH).fill(0);
      // the record offset is unused here: a tail run hands out its documents directly
      setKeyRow(
        row,
        r.position_id as number,
        r.opened_us as number,
        r.closed_us as number,
        r.max_size_usd as number | null,
        r.net_pnl_usd as number,
        r.max_leverage as number,
        held.variants.code(r.market_variant as string | null, r.market as string),
        0,
      );
      const l: TailLifecycle = { row, lastSeq: r.last_seq as number, doc: r.doc as string };
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
