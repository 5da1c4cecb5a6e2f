/**
 * The raw alpha fills of whole 5-minute buckets, cached per bucket.
 * `GET /v1/alpha/liquidations/history`, `GET /v1/alpha/open-interest/history` and
 * `GET /v1/alpha/volume/history` answer from the in-memory mirror of the buckets
 * (server/read/buckets/mirror-history.ts) except for a window's partial 5-minute pieces at its edges, which
 * need the fills themselves. A moving window (`to` defaulting to now) puts those edges in the same few
 * buckets for five minutes, and every market, interval and endpoint whose window starts there shares
 * one: so a bucket is read once for every alpha market (sql/read/buckets/edge-fills.sql, 1.5-4.5 ms of DuckDB on
 * the 12.5M-fill bench journal, against none from here) and each request filters it by market and time.
 *
 * Never stale: the mirror forwards every announced change of the derived state. An append's
 * fills are added to the kept buckets they fall in ({@link EdgeBuckets.add}): a live append lands
 * in the bucket of `to` every second, which was read again after each one (1.5-4.5 ms of DuckDB
 * beside the append's own derive, on the first request of every moving window). Any other change
 * (a job's) drops the buckets it touched ({@link EdgeBuckets.forget}). Either way a read that was
 * under way while a change was announced is served but not kept (it may predate the change).
 */
import type { Fill, Protocol } from '../../journal/rows.ts';
import { SecondChanceMap } from '../../lib/second-chance-map.ts';
import { FIVE_MINUTES_MS } from '../../lib/time.ts';

/** One alpha fill of an edge bucket; amounts in exact micro-dollars (see sql/read/buckets/edge-fills.sql). */
export interface EdgeFill {
  /** journal seq: an append adds to a kept bucket only the fills after its newest */
  seq: number;
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

/**
 * The micro-dollars sql/read/buckets/edge-fills.sql reads for an amount the append path staged: DuckDB
 * casts the double to DECIMAL(18,6) by rounding `usd * 1e6` half away from zero, and the SQL's
 * `round(amount::DOUBLE * 1e6)` gives that integer back (test/read/buckets/edge-buckets.test.ts compares the
 * two on 210,000 values: half-micro ties, negatives, more than six decimals).
 */
function microOf(usd: number): number {
  const scaled = usd * 1_000_000;
  return scaled < 0 ? -Math.round(-scaled) : Math.round(scaled);
}

/** The edge bucket row sql/read/buckets/edge-fills.sql reads for alpha fill `f` once it is committed. */
export function edgeFillOf(f: Fill): EdgeFill {
  return {
    seq: f.seq,
    market: f.market,
    market_variant: f.market_variant,
    time_ms: f.time,
    liquidation: f.type === 'liquidation',
    is_long: f.side === 'long',
    is_short: f.side === 'short',
    size_delta: microOf(f.size_delta_usd),
    fee: microOf(f.fee_usd),
    liquidation_fee: microOf(f.liquidation_fee_usd ?? 0),
  };
}

/** Reads the fills of every market of the mirror's protocol in [lo, hi) (epoch ms). */
export type EdgeReader = (lo: number, hi: number) => Promise<EdgeFill[]>;

/** Buckets kept by default: a few dozen fills each on the bench journal, so well under 10 MB. */
const CAPACITY = 1_024;

/** See the file comment. */
export class EdgeBuckets {
  /** bucket start (epoch ms) → its fills; past capacity the oldest go, one served since it was read after the others */
  private readonly kept: SecondChanceMap<number, readonly EdgeFill[]>;
  /** reads under way, shared by the requests that want the same bucket meanwhile */
  private readonly reading = new Map<number, Promise<readonly EdgeFill[]>>();
  /** bumped by every change: a read that saw it move is not kept */
  private generation = 0;
  /** buckets served from memory, and reads started (tests) */
  readonly stats = { hits: 0, reads: 0 };

  /** @param protocol whose fills `read` gives (an append's fills of the other protocol are not added) */
  constructor(
    private readonly read: EdgeReader,
    capacity = CAPACITY,
    private readonly protocol: Protocol = 'alpha',
  ) {
    this.kept = new SecondChanceMap(capacity, () => 1);
  }

  /** The alpha fills of the 5-minute bucket that starts at `start` (a multiple of 5 minutes). */
  fills(start: number): Promise<readonly EdgeFill[]> {
    const hit = this.kept.peek(start);
    if (hit) {
      this.stats.hits += 1;
      this.kept.touch(start);
      return Promise.resolve(hit);
    }
    const under = this.reading.get(start);
    if (under) return under;
    const generation = this.generation;
    this.stats.reads += 1;
    const read = this.read(start, start + FIVE_MINUTES_MS)
      .then((rows) => {
        if (generation === this.generation) this.kept.set(start, rows);
        return rows;
      })
      .finally(() => {
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
    for (const start of [...this.kept.keys()]) if (start + FIVE_MINUTES_MS > fromMs && start <= toMs) this.kept.delete(start);
  }

  /**
   * Adds an append's committed fills (those of the protocol, as {@link edgeFillOf} rows) to the kept
   * buckets they fall in, and keeps no read under way (as {@link forget}). A bucket read after the
   * append committed but before this already holds them: only fills with a seq past its newest are
   * added (an append's seqs are all past every earlier fill's), so none is counted twice.
   */
  add(fills: readonly Fill[]): void {
    this.generation++;
    this.reading.clear();
    const by = new Map<number, EdgeFill[]>();
    for (const f of fills) {
      const start = Math.floor(f.time / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
      if (f.protocol !== this.protocol || !this.kept.has(start)) continue;
      const list = by.get(start);
      if (list) list.push(edgeFillOf(f));
      else by.set(start, [edgeFillOf(f)]);
    }
    for (const [start, added] of by) {
      const held = this.kept.peek(start)!;
      let newest = -Infinity;
      for (const f of held) if (f.seq > newest) newest = f.seq;
      const fresh = added.filter((f) => f.seq > newest);
      if (fresh.length) this.kept.set(start, [...held, ...fresh]);
    }
  }

  /** Buckets held (tests). */
  get size(): number {
    return this.kept.size;
  }
}
