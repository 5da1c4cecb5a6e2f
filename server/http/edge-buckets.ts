/**
 * The raw alpha fills of whole 5-minute buckets, cached per bucket (issue 7). Endpoints 6, 8 and 9
 * answer from the in-memory mirror of the buckets (server/http/mirror-history.ts) except for a
 * window's partial 5-minute pieces at its edges, which need the fills themselves. A moving window
 * (`to` defaulting to now) puts those edges in the same few buckets for five minutes, and every
 * market, interval and endpoint whose window starts there shares one: so a bucket is read once
 * for every alpha market (sql/api/edge-fills.sql, 1.5-4.5 ms of DuckDB on the 12.5M-fill bench
 * journal, against none from here) and each request filters it by market and time.
 *
 * Never stale: the mirror forwards every announced change of the derived state
 * ({@link EdgeBuckets.forget}), which drops the buckets it touched, and a read that was under way
 * while any change was announced is served but not kept (it may predate the change).
 */
import { M5 } from './variant-buckets.ts';

/** One alpha fill of an edge bucket; amounts in exact micro-dollars (see sql/api/edge-fills.sql). */
export interface EdgeFill {
  market: string;
  market_variant: string | null;
  time_ms: number;
  liquidation: boolean;
  is_long: boolean;
  is_short: boolean;
  size_delta: number;
  fee: number;
  liquidation_fee: number;
}

/** Reads the fills of every alpha market in [lo, hi) (epoch ms). */
export type EdgeReader = (lo: number, hi: number) => Promise<EdgeFill[]>;

/** Buckets kept by default: a few dozen fills each on the bench journal, so well under 10 MB. */
const CAPACITY = 1_024;

/** See the file comment. */
export class EdgeBuckets {
  /** bucket start (epoch ms) → its fills, least recently used first */
  private readonly kept = new Map<number, readonly EdgeFill[]>();
  /** reads under way, shared by the requests that want the same bucket meanwhile */
  private readonly reading = new Map<number, Promise<readonly EdgeFill[]>>();
  /** bumped by every change: a read that saw it move is not kept */
  private generation = 0;
  /** buckets served from memory, and reads started (tests) */
  readonly stats = { hits: 0, reads: 0 };

  constructor(private readonly read: EdgeReader, private readonly capacity = CAPACITY) {}

  /** The alpha fills of the 5-minute bucket that starts at `start` (a multiple of 5 minutes). */
  fills(start: number): Promise<readonly EdgeFill[]> {
    const hit = this.kept.get(start);
    if (hit) {
      this.stats.hits += 1;
      this.kept.delete(start); // most recently used again
      this.kept.set(start, hit);
      return Promise.resolve(hit);
    }
    const under = this.reading.get(start);
    if (under) return under;
    const generation = this.generation;
    this.stats.reads += 1;
    const read = this.read(start, start + M5).then((rows) => {
      if (generation === this.generation) this.keep(start, rows);
      return rows;
    }).finally(() => {
      if (this.reading.get(start) === read) this.reading.delete(start);
    });
    this.reading.set(start, read);
    return read;
  }

  /**
   * Forgets the buckets that meet [fromMs, toMs] (a change's time span) and keeps no read under
   * way. Reads under way are no longer shared either: a request after the change reads again.
   */
  forget(fromMs: number, toMs: number): void {
    this.generation++;
    this.reading.clear();
    for (const start of [...this.kept.keys()]) if (start + M5 > fromMs && start <= toMs) this.kept.delete(start);
  }

  /** Buckets held (tests). */
  get size(): number {
    return this.kept.size;
  }

  private keep(start: number, rows: readonly EdgeFill[]): void {
    this.kept.set(start, rows);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!);
  }
}
