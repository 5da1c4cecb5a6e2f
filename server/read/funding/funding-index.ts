/**
 * `GET /v1/alpha/funding-rates/history`'s working set: every alpha hourly funding row (`funding_1h`,
 * one per variant and hour: a few tens of thousands) held in memory with running sums, so a history
 * answer is a binary search and one subtraction per bucket instead of a DuckDB scan and aggregate (~7
 * ms warm, 13-20 ms p99 on the bench journal).
 *
 * Exactly the SQL's answer (sql/read/funding/funding-rates-history.sql): the rate sums are DECIMAL(38,20),
 * summed here as exact integers (BigInt running sums) and cast to DOUBLE as DuckDB casts them
 * (server/db/decimal-double.ts), then divided by the snapshot count.
 *
 * Never stale: every committed change to `funding_1h` is announced with its time span and
 * `marketSnapshots` set (the append path for each append with market snapshots, the rollup refresh
 * for the days whose snapshot buckets it recomputed: Service `onDerivedChange`). The rows from the
 * earliest announced hour on are read again before the next answer (requests wait for that); until
 * the first load is done the route answers from SQL.
 * A change announced while rows are being read is read again by the next answer.
 */
import type { DerivedChange } from '../../ingest/append-events.ts';
import { log } from '../../lib/log.ts';
import type { Row } from '../../db/database.ts';
import { isoFromMs } from '../../db/values.ts';
import { unscaledOf, wideDecimalToDouble } from '../../db/decimal-double.ts';
import type { Service } from '../../service.ts';
import { lowerBound } from '../../lib/lower-bound.ts';
import { waitUntil } from '../../lib/waiting.ts';
import { HOUR_MS } from '../../lib/time.ts';

/** The scale of `funding_1h`'s rate sums (sql/schema/derived.sql). */
const RATE_SCALE = 20;

/** One variant's hours, oldest first, with running sums (index i: the rows before hour i). */
class VariantHours {
  readonly hours: number[] = [];
  /** running sums, one longer than `hours` */
  readonly snapshots: number[] = [0];
  readonly long: bigint[] = [0n];
  readonly short: bigint[] = [0n];

  /** Drops the hours at or after `fromMs` (they are read again). */
  truncate(fromMs: number): void {
    const i = lowerBound(this.hours, fromMs);
    this.hours.length = i;
    for (const sums of [this.snapshots, this.long, this.short]) sums.length = i + 1;
  }

  push(hourMs: number, snapshots: number, long: bigint, short: bigint): void {
    const i = this.hours.length;
    this.hours.push(hourMs);
    this.snapshots.push(this.snapshots[i]! + snapshots);
    this.long.push(this.long[i]! + long);
    this.short.push(this.short[i]! + short);
  }
}

/** See the file comment. One per route list. */
export class FundingIndex {
  private byVariant = new Map<string, VariantHours>();
  private ready = false;
  /** the earliest hour whose rows may have changed since they were read (Infinity: none) */
  private dirtyFrom = 0;
  private work: Promise<void> | null = null;
  /** after a failed read: when the next may start */
  private retryAt = 0;
  private opened = false;

  constructor(private readonly service: Service) {}

  /** Follows changes and starts the first load (in the background). Idempotent. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.service.onDerivedChange((change: DerivedChange) => {
      // funding_1h follows market snapshots alone: a fills-only append (every second or two in live
      // mode) changes none of its rows
      if (change.marketSnapshots) this.dirtyFrom = Math.min(this.dirtyFrom, Math.floor(change.fromMs / HOUR_MS) * HOUR_MS);
    });
    this.work = this.read().finally(() => (this.work = null));
  }

  /** Whether the set answers now (false until loaded, or after a failed read; `/health`'s `read_side.warming`). */
  warm(): boolean {
    return this.ready;
  }

  /** Resolves once the set answers (tests, which want the in-memory path from the first request). */
  loaded(timeoutMs?: number): Promise<void> {
    return waitUntil(async () => (await this.current()) !== null, 'funding index', timeoutMs);
  }

  /**
   * `GET /v1/alpha/funding-rates/history`'s rows for `variant` over the hours in [floor_hour(fromMs),
   * toMs), per bucket of `bucketMs` (a multiple of an hour), exactly as its SQL gives them; null while
   * the SQL must answer (not loaded yet, or the last read failed).
   */
  async rows(variant: string, fromMs: number, toMs: number, bucketMs: number): Promise<Row[] | null> {
    const sets = await this.current();
    if (!sets) return null;
    const v = sets.get(variant);
    if (!v) return [];
    const out: Row[] = [];
    let i = lowerBound(v.hours, Math.floor(fromMs / HOUR_MS) * HOUR_MS);
    const end = lowerBound(v.hours, toMs);
    while (i < end) {
      const bucket = Math.floor(v.hours[i]! / bucketMs) * bucketMs;
      let j = i + 1;
      while (j < end && v.hours[j]! < bucket + bucketMs) j++;
      const snapshots = v.snapshots[j]! - v.snapshots[i]!;
      if (snapshots > 0) {
        out.push({
          time: isoFromMs(bucket),
          funding_rate_long: wideDecimalToDouble(v.long[j]! - v.long[i]!, RATE_SCALE) / snapshots,
          funding_rate_short: wideDecimalToDouble(v.short[j]! - v.short[i]!, RATE_SCALE) / snapshots,
        });
      }
      i = j;
    }
    return out;
  }

  /**
   * The sets with every announced change read in (requests wait for that read); null until the
   * first load is done, or after a read failed (read whole again a minute later).
   */
  private async current(): Promise<Map<string, VariantHours> | null> {
    this.open();
    if (!this.ready) {
      if (!this.work && Date.now() >= this.retryAt) this.work = this.read().finally(() => (this.work = null));
      return null;
    }
    while (this.work || this.dirtyFrom !== Infinity) {
      this.work ??= this.read().finally(() => (this.work = null));
      await this.work;
      if (!this.ready) return null;
    }
    return this.byVariant;
  }

  /** Reads the rows from `dirtyFrom` on again (everything at first); a failure drops the set. */
  private async read(): Promise<void> {
    const from = this.dirtyFrom;
    this.dirtyFrom = Infinity; // changes announced from now on are read by the next call
    try {
      const rows = await this.service.db.query('read/funding/funding-1h', { from });
      const sets = this.ready ? this.byVariant : new Map<string, VariantHours>();
      for (const v of sets.values()) v.truncate(from);
      for (const r of rows) {
        const key = r.market_variant as string;
        let v = sets.get(key);
        if (!v) sets.set(key, (v = new VariantHours()));
        v.push(r.hour_ms as number, r.snapshots as number, unscaledOf(r.rate_long_sum as string, RATE_SCALE), unscaledOf(r.rate_short_sum as string, RATE_SCALE));
      }
      this.byVariant = sets;
      this.ready = true;
    } catch (err) {
      log.warn('funding index: read failed; GET /v1/alpha/funding-rates/history answers from SQL until it is read again', err);
      this.ready = false;
      this.byVariant = new Map();
      this.dirtyFrom = 0;
      this.retryAt = Date.now() + 60_000;
    }
  }
}
