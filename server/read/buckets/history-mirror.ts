/**
 * The in-memory mirror of one protocol's 5-minute buckets (`rollup_5m`, `oi_snapshot_5m`) that
 * the liquidation, open-interest and volume history routes answer from: one {@link VariantBuckets} per market variant (per
 * market for beta, which has no variants); one mirror per protocol.
 *
 * Never stale: every committed change to those tables is announced with its time span (the
 * append path for each append, the rollup refresh for the days it recomputed; Service
 * `onDerivedChange`). A small span is patched: its buckets are read again from DuckDB, and a
 * request that asks for the mirror after the announcement waits for that patch. A span of more
 * than {@link PATCH_DAYS} days (a backfill, a refresh of many days) drops the mirror instead: the
 * routes answer from SQL until a full reload, started once such spans have stopped coming for
 * {@link QUIET_MS} (an option), is done. Until the first load is done, the routes answer from SQL as well.
 */
import type { DuckDBDataChunk } from '@duckdb/node-api';
import type { DerivedChange } from '../../ingest/append-events.ts';
import { log } from '../../lib/log.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { EdgeBuckets, type EdgeFill } from './edge-buckets.ts';
import { Inexact, LOAD_LIMIT, VariantBuckets, variantKey } from './variant-buckets.ts';
import { waitUntil, yieldToLoop } from '../../lib/waiting.ts';
import { DAY_MS, FIVE_MINUTES_MS } from '../../lib/time.ts';

/** The time a change touched (the mirror patches rollups and snapshot OI alike). */
type TimeSpan = Pick<DerivedChange, 'fromMs' | 'toMs'>;

/** Spans up to this many days are patched; longer ones drop the mirror until a full reload. */
export const PATCH_DAYS = 3;
/**
 * A full reload waits until no long span came for this long: a backfill's appends come back to
 * back, but up to ~10 s apart as its batches grow (with 5 s, the default set's backfill paid for
 * three full reloads, ~2.4 CPU-s).
 */
const QUIET_MS = 15_000;
/** Buckets held past the newest one, so that live appends rarely grow the arrays. */
const HEADROOM_DAYS = 7;

/** The variants of the mirror as of one moment. */
export interface MirrorView {
  variants: readonly VariantBuckets[];
}

/** See the file comment. One per route list and protocol. */
export class HistoryMirror {
  private byKey = new Map<string, VariantBuckets>();
  private origin = 0;
  private length = 0;
  private ready = false;
  private loading = false;
  /** changes not yet patched in (merged), and whether a full reload is due */
  private pending: TimeSpan | null = null;
  private stale = true;
  private work: Promise<void> | null = null;
  private reloadAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private opened = false;

  private readonly quietMs: number;
  /** the raw fills of the buckets at windows' partial edges, kept per bucket (never stale: see {@link changed}) */
  readonly edges: EdgeBuckets;

  constructor(
    private readonly service: Service,
    opts: { quietMs?: number } = {},
    readonly protocol: Protocol = 'alpha',
  ) {
    this.quietMs = opts.quietMs ?? QUIET_MS;
    this.edges = new EdgeBuckets(async (lo, hi) => (await service.db.query('read/buckets/edge-fills', { protocol, lo, hi })) as unknown as EdgeFill[], undefined, protocol);
  }

  /** Follows changes and starts the first load (in the background). Idempotent. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.service.onDerivedChange((change) => this.changed(change));
    this.scheduleReload(0);
  }

  /**
   * The mirror, with every change announced so far patched in; null while the SQL must answer
   * (not loaded yet, dropped for a long change, or a patch failed).
   */
  async current(): Promise<MirrorView | null> {
    this.open();
    while (this.ready && (this.pending || this.work)) {
      this.work ??= this.patch().finally(() => (this.work = null)); // else: a patch is under way
      await this.work;
    }
    return this.ready ? { variants: [...this.byKey.values()] } : null;
  }

  /** Whether the mirror answers now (false: not loaded yet, or dropped for a long change; `/health`'s `read_side.warming`). */
  warm(): boolean {
    return this.ready;
  }

  /** Resolves once the mirror answers (tests, which want the in-memory path from the first request). */
  loaded(timeoutMs?: number): Promise<void> {
    return waitUntil(async () => (await this.current()) !== null, 'history mirror', timeoutMs);
  }

  private changed(change: DerivedChange): void {
    // whatever the mirror does below: the fills of the span changed; an append says which
    if (change.fills) this.edges.add(change.fills);
    else this.edges.forget(change.fromMs, change.toMs);
    const long = change.toMs - change.fromMs > PATCH_DAYS * DAY_MS;
    if (!this.ready && !this.loading) {
      // a reload is due anyway: it reads everything; a long change (a backfill) puts it off
      if (long) this.scheduleReload(this.quietMs);
      return;
    }
    if (long) {
      this.drop();
      return;
    }
    // ready, or loading (the load may or may not see this change: it is patched in after it); the
    // span alone is kept, not the change with its fills
    this.pending = this.pending ? { fromMs: Math.min(this.pending.fromMs, change.fromMs), toMs: Math.max(this.pending.toMs, change.toMs) } : { fromMs: change.fromMs, toMs: change.toMs };
    if (this.pending.toMs - this.pending.fromMs > PATCH_DAYS * DAY_MS) this.drop();
  }

  /** Stops answering from memory; a full reload follows once long changes stop coming. */
  private drop(): void {
    this.ready = false;
    this.stale = true;
    this.pending = null;
    this.byKey = new Map(); // useless now: let it go before the reload builds the next one
    this.scheduleReload(this.quietMs);
  }

  /** Arms the reload timer for `delayMs` from now (re-armed while work is under way). */
  private scheduleReload(delayMs: number): void {
    this.reloadAt = Date.now() + delayMs;
    if (this.timer) return; // the armed timer reads reloadAt when it fires
    const tick = (): void => {
      this.timer = undefined;
      if (!this.stale) return;
      const wait = Math.max(this.reloadAt - Date.now(), this.work ? 50 : 0);
      if (wait > 0) {
        this.timer = setTimeout(tick, wait);
        this.timer.unref(); // never what keeps the process alive
        return;
      }
      this.work = this.reload().finally(() => {
        this.work = null;
        if (this.stale) this.scheduleReload(Math.max(0, this.reloadAt - Date.now()));
      });
    };
    this.timer = setTimeout(tick, delayMs);
    this.timer.unref();
  }

  /** Loads every bucket. Changes announced meanwhile are patched in by the next {@link current}. */
  private async reload(): Promise<void> {
    this.stale = false;
    this.pending = null;
    this.loading = true;
    const t0 = performance.now();
    try {
      const bounds = await this.service.db.queryOne('read/buckets/bounds', { protocol: this.protocol });
      // no data yet: start at today (wall clock: the service's would count as a request's read in
      // the response cache); data before it makes a change before the origin, hence a reload
      const origin = typeof bounds?.first_day === 'number' ? bounds.first_day : Math.floor(Date.now() / DAY_MS) * DAY_MS;
      const last = typeof bounds?.last_day === 'number' ? bounds.last_day : origin;
      const fresh = new Map<string, VariantBuckets>();
      const length = this.lengthFor(origin, last + DAY_MS - FIVE_MINUTES_MS);
      const load = { origin, length, a: 0, b: length, variants: fresh };
      await this.readRows('read/buckets/rollup-5m', origin, origin + length * FIVE_MINUTES_MS, load);
      await this.readRows('read/buckets/oi-snapshot-5m', origin, origin + length * FIVE_MINUTES_MS, load);
      for (const v of fresh.values()) {
        v.finish();
        await yieldToLoop(); // ~10 ms a variant: requests go on in between
      }
      if (this.stale) return; // a long change came meanwhile: this load may have missed part of it
      this.byKey = fresh;
      [this.origin, this.length] = [origin, length];
      this.ready = true;
      log.debug(`${this.protocol} history mirror: ${fresh.size} variants loaded in ${(performance.now() - t0).toFixed(0)} ms`);
    } catch (err) {
      this.stale = true;
      if (!(err instanceof Inexact)) log.warn(`${this.protocol} history mirror: load failed; the liquidation, open-interest and volume history routes answer from SQL`, err);
      this.reloadAt = Date.now() + (err instanceof Inexact ? 3_600_000 : 60_000);
    } finally {
      this.loading = false;
    }
  }

  /** Reads the buckets of the pending span again, into the live arrays (requests wait meanwhile). */
  private async patch(): Promise<void> {
    const span = this.pending!;
    this.pending = null;
    const lo = Math.floor(span.fromMs / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
    const hi = Math.floor(span.toMs / FIVE_MINUTES_MS) * FIVE_MINUTES_MS + FIVE_MINUTES_MS;
    if (lo < this.origin) return this.drop(); // before the first day held: reload with an earlier origin
    try {
      const needed = this.lengthFor(this.origin, hi - FIVE_MINUTES_MS);
      if (needed > this.length) {
        for (const v of this.byKey.values()) v.grow(needed);
        this.length = needed;
      }
      const load = { origin: this.origin, length: this.length, a: (lo - this.origin) / FIVE_MINUTES_MS, b: (hi - this.origin) / FIVE_MINUTES_MS, variants: this.byKey };
      for (const v of this.byKey.values()) v.begin(load.a, load.b);
      await this.readRows('read/buckets/rollup-5m', lo, hi, load);
      await this.readRows('read/buckets/oi-snapshot-5m', lo, hi, load);
      for (const v of this.byKey.values()) v.finish();
    } catch (err) {
      if (!(err instanceof Inexact)) log.warn(`${this.protocol} history mirror: patch failed; reloading it whole`, err);
      this.drop();
    }
  }

  /** Buckets to hold from `origin` so that the bucket at `lastMs` fits, plus headroom. */
  private lengthFor(origin: number, lastMs: number): number {
    const days = Math.floor((lastMs - origin) / DAY_MS) + 1 + HEADROOM_DAYS;
    return days * (DAY_MS / FIVE_MINUTES_MS);
  }

  /**
   * Runs one mirror query over buckets [lo, hi) and writes its rows into `load.variants` (a
   * variant not there yet is added, its range [a, b) begun). The rows come ordered by variant, so
   * a chunk whose first and last rows are of one variant is all of it, and the strings are read
   * only where the variant changes. Every amount is checked for exactness.
   */
  private async readRows(name: string, lo: number, hi: number, load: Load): Promise<void> {
    const snapshots = name === 'read/buckets/oi-snapshot-5m';
    await this.service.db.queryChunkColumns(name, { protocol: this.protocol, lo, hi }, (chunk: DuckDBDataChunk) => {
      const n = chunk.rowCount;
      const markets = chunk.getColumnVector(0);
      const variants = chunk.getColumnVector(1);
      const columns: Float64Array[] = [];
      for (let c = 2; c < chunk.columnCount; c++) columns.push((chunk.getColumnVector(c) as unknown as { items: Float64Array }).items);
      const cells = new Float64Array(columns.length - 1);
      const variantAt = (i: number): [string, string | null] => [markets.getItem(i) as string, variants.getItem(i) as string | null];
      const [m0, v0] = variantAt(0);
      const [m1, v1] = variantAt(n - 1);
      const uniform = m0 === m1 && v0 === v1;
      let target: VariantBuckets | undefined;
      let key = '';
      for (let i = 0; i < n; i++) {
        if (!uniform || !target) {
          const [m, v] = uniform ? [m0, v0] : variantAt(i);
          const k = variantKey(m, v);
          if (k !== key || !target) {
            key = k;
            target = load.variants.get(k);
            if (!target) {
              load.variants.set(k, (target = new VariantBuckets(m, v, load.origin, load.length)));
              target.begin(load.a, load.b);
            }
          }
        }
        const at = (columns[0]![i]! - load.origin) / FIVE_MINUTES_MS;
        if (!(at >= load.a && at < load.b)) continue; // a row of a change after the bounds were read (it is patched later)
        for (let c = 1; c < columns.length; c++) {
          const x = columns[c]![i]!;
          if (!(Math.abs(x) < LOAD_LIMIT)) throw new Inexact(`a value of ${name}`);
          cells[c - 1] = x;
        }
        if (snapshots) target.setSnapshot(at, cells[0]!, cells[1]!, cells[2]!);
        else target.setRollup(at, cells);
      }
    });
  }
}

/** Where {@link HistoryMirror.readRows} writes: the variants, their layout and the range being replaced. */
interface Load {
  origin: number;
  length: number;
  a: number;
  b: number;
  variants: Map<string, VariantBuckets>;
}
