/**
 * One market variant's (a beta market's) 5-minute derived buckets held in typed arrays (the liquidation,
 * open-interest and volume history routes read them instead of planning a dozen range scans per request): the `rollup_5m` sums,
 * the running OI of its fills, and the last market snapshot of each bucket (`oi_snapshot_5m`).
 *
 * Index i is the bucket starting at `origin + i * 5 min` (`origin` is midnight UTC). Amounts are
 * micro-dollars held as doubles, which are exact integers while below 2^53: every value loaded
 * and every sum formed is checked against that, and {@link Inexact} is thrown where it would not
 * hold (the caller then answers from SQL). The sums are also kept per hour and per day, so a sum
 * over any range reads at most ~70 cells plus one per day.
 */

import { servedUsd } from '../../db/decimal-double.ts';
import { FIVE_MINUTES_MS } from '../../lib/time.ts';

const PER_HOUR = 12;
const PER_DAY = 288;

/** The summed rollup columns (sql/read/buckets/rollup-5m.sql); the `*_count` ones are counts of fills. */
export const SUM_COLUMNS = ['fill_count', 'volume', 'fees', 'liq_count', 'liq_long', 'liq_short', 'liq_fees'] as const;
export type SumColumn = (typeof SUM_COLUMNS)[number];
const COLUMN_INDEX = Object.fromEntries(SUM_COLUMNS.map((c, i) => [c, i])) as Record<SumColumn, number>;

/** The key of a market variant in the mirror's maps (a variant may be null). */
export const variantKey = (market: string, variant: string | null): string => `${market}\u0000${variant ?? ''}`;

/** A sum or a value that doubles could not hold exactly. */
export class Inexact extends Error {
  constructor(what: string) {
    super(`${what} is too large for exact double arithmetic`);
  }
}

/**
 * Loaded amounts come through DuckDB as `round(decimal::DOUBLE * 1e6)`, which gives the exact
 * micro-dollar integer m when |m| < 2^50 (the two roundings err by far less than 0.5); above it
 * the mirror refuses the value.
 */
export const LOAD_LIMIT = 2 ** 50;

/**
 * A sum of micro-dollar amounts (integer-valued doubles below 2^53, as the buckets hold them):
 * added as doubles while every partial sum is surely exact (the terms' absolute sum below 2^53),
 * then as a BigInt. A day over every market can pass 2^53 micro-dollars (~$9.0B) when the
 * variants' own sums do not; {@link usd} then still answers exactly as the SQL's cast would.
 */
export class ExactSum {
  private value = 0;
  private abs = 0;
  /** the sum, once it left the range where doubles add exactly */
  private big: bigint | null = null;

  add(x: number): void {
    if (this.big !== null) this.big += BigInt(x);
    else if (this.abs + Math.abs(x) > Number.MAX_SAFE_INTEGER) this.big = BigInt(this.value) + BigInt(x);
    else {
      this.value += x;
      this.abs += Math.abs(x);
    }
  }

  /** Adds another sum. */
  addSum(other: ExactSum): void {
    if (other.big === null) this.add(other.value);
    else this.big = (this.big ?? BigInt(this.value)) + other.big;
  }

  /** The sum as a number (a count), or {@link Inexact} past 2^53. */
  get exact(): number {
    if (this.big !== null) throw new Inexact('a bucket sum');
    return this.value;
  }

  /** The sum of micro-dollars in dollars as the SQL serves it: DuckDB's DECIMAL(38,6) → DOUBLE cast, bit for bit. */
  get usd(): number {
    return this.big === null ? this.value / 1e6 : servedUsd(this.big);
  }
}

/** Σ values[i] for i in [a, b), or {@link Inexact} when the sum may not be exact. */
function exactSum(values: Float64Array | Int32Array, a: number, b: number): number {
  let sum = 0;
  let abs = 0;
  for (let i = a; i < b; i++) {
    const x = values[i]!;
    sum += x;
    abs += Math.abs(x);
  }
  if (abs > Number.MAX_SAFE_INTEGER) throw new Inexact('an hour or day sum');
  return sum;
}

function grown<T extends Float64Array | Int32Array>(old: T, n: number, fill: number): T {
  const next = new (old.constructor as new (n: number) => T)(n);
  next.set(old);
  if (fill !== 0) next.fill(fill, old.length);
  return next;
}

/** See the file comment. */
export class VariantBuckets {
  /** per {@link SUM_COLUMNS} index: per 5 minutes, per hour, per day */
  /** counts as Int32Array, amounts as Float64Array */
  private m5: (Float64Array | Int32Array)[];
  private h1: Float64Array[];
  private d1: Float64Array[];
  /** Σ OI deltas (long / short) of the buckets before i: the OI of the fills at bucket i's start; length n + 1 */
  private cumLong: Float64Array;
  private cumShort: Float64Array;
  /** the bucket's last snapshot: ms after the bucket start (-1: none), OI long / short */
  private snapAt: Int32Array;
  private snapLong: Float64Array;
  private snapShort: Float64Array;
  /** the greatest j <= i whose bucket has a snapshot, else -1 */
  private lastSnap: Int32Array;
  /** the first bucket with fills, or with a snapshot of OI > 0 (n: none) */
  firstActive: number;

  constructor(
    readonly market: string,
    readonly variant: string | null,
    readonly origin: number,
    private n: number,
  ) {
    const f = (k: number) => new Float64Array(k);
    this.m5 = SUM_COLUMNS.map((c) => (c.endsWith('_count') ? new Int32Array(n) : f(n)));
    this.h1 = SUM_COLUMNS.map(() => f(n / PER_HOUR));
    this.d1 = SUM_COLUMNS.map(() => f(n / PER_DAY));
    this.cumLong = f(n + 1);
    this.cumShort = f(n + 1);
    this.snapAt = new Int32Array(n).fill(-1);
    this.snapLong = f(n);
    this.snapShort = f(n);
    this.lastSnap = new Int32Array(n).fill(-1);
    this.firstActive = n;
  }

  /** Buckets held: [origin, origin + length * 5 min). */
  get length(): number {
    return this.n;
  }

  /** Extends the buckets held to `n` (a multiple of a day's buckets); the new ones empty. */
  grow(n: number): void {
    if (n <= this.n) return;
    this.m5 = this.m5.map((a) => grown(a, n, 0));
    this.h1 = this.h1.map((a) => grown(a, n / PER_HOUR, 0));
    this.d1 = this.d1.map((a) => grown(a, n / PER_DAY, 0));
    this.cumLong = grown(this.cumLong, n + 1, this.cumLong[this.n]!);
    this.cumShort = grown(this.cumShort, n + 1, this.cumShort[this.n]!);
    this.snapAt = grown(this.snapAt, n, -1);
    this.snapLong = grown(this.snapLong, n, 0);
    this.snapShort = grown(this.snapShort, n, 0);
    this.lastSnap = grown(this.lastSnap, n, this.lastSnap[this.n - 1]!);
    if (this.firstActive === this.n) this.firstActive = n;
    this.n = n;
  }

  /** true until the first {@link finish}: the arrays hold their initial (empty) values */
  private pristine = true;
  /** the bucket range being replaced (begin … finish), and the running OI at its end before */
  private open: { a: number; b: number; long: number; short: number } | null = null;

  /**
   * Starts replacing buckets [a, b): they are emptied, then filled by {@link setRollup} and
   * {@link setSnapshot}, and {@link finish} brings the hour and day sums, the running OI and the
   * last-snapshot index up to date. In between, the other readers must not look (the mirror
   * makes requests wait).
   */
  begin(a: number, b: number): void {
    this.open = { a, b, long: this.cumLong[b]!, short: this.cumShort[b]! };
    if (this.pristine) return; // nothing written yet: every bucket is empty already
    for (let i = a; i < b; i++) {
      for (const m5 of this.m5) m5[i] = 0;
      // cum[i + 1] holds bucket i's own deltas until finish() sums them up
      this.cumLong[i + 1] = 0;
      this.cumShort[i + 1] = 0;
      this.snapAt[i] = -1;
      this.snapLong[i] = 0;
      this.snapShort[i] = 0;
    }
  }

  /** Bucket i's rollup: the {@link SUM_COLUMNS} values in order, then the OI deltas long and short. */
  setRollup(i: number, cells: ArrayLike<number>): void {
    for (let c = 0; c < SUM_COLUMNS.length; c++) this.m5[c]![i] = cells[c]!;
    this.cumLong[i + 1] = cells[SUM_COLUMNS.length]!;
    this.cumShort[i + 1] = cells[SUM_COLUMNS.length + 1]!;
  }

  /** Bucket i's last snapshot: its time (epoch ms) and OI long and short. */
  setSnapshot(i: number, timeMs: number, long: number, short: number): void {
    this.snapAt[i] = timeMs - (this.origin + i * FIVE_MINUTES_MS);
    this.snapLong[i] = long;
    this.snapShort[i] = short;
  }

  /** Ends the replacement {@link begin} started. */
  finish(): void {
    const { a, b, long, short } = this.open!;
    this.open = null;
    this.pristine = false;
    let runLong = this.cumLong[a]!;
    let runShort = this.cumShort[a]!;
    for (let i = a; i < b; i++) {
      runLong += this.cumLong[i + 1]!;
      runShort += this.cumShort[i + 1]!;
      this.cumLong[i + 1] = runLong;
      this.cumShort[i + 1] = runShort;
    }
    // everything after b moves by the change of the running OI at b
    let checkTo = b;
    if ((runLong !== long || runShort !== short) && b < this.n) {
      checkTo = this.n;
      for (let i = b + 1; i <= this.n; i++) {
        this.cumLong[i] = this.cumLong[i]! + (runLong - long);
        this.cumShort[i] = this.cumShort[i]! + (runShort - short);
      }
    }
    for (let i = a; i <= checkTo; i++) {
      if (Math.abs(this.cumLong[i]!) > Number.MAX_SAFE_INTEGER || Math.abs(this.cumShort[i]!) > Number.MAX_SAFE_INTEGER) {
        throw new Inexact('a running open interest');
      }
    }
    this.relevel(a, b);
    for (let i = a; i < this.n; i++) {
      const last = this.snapAt[i]! >= 0 ? i : i > 0 ? this.lastSnap[i - 1]! : -1;
      if (i >= b && this.lastSnap[i] === last) break; // unchanged from here on
      this.lastSnap[i] = last;
    }
    // buckets before the first active one were inactive and, before a, are unchanged
    if (this.firstActive >= a) {
      this.firstActive = this.n;
      const fills = this.m5[COLUMN_INDEX.fill_count]!;
      for (let i = a; i < this.n; i++) {
        if (fills[i]! > 0 || (this.snapAt[i]! >= 0 && this.snapLong[i]! + this.snapShort[i]! > 0)) {
          this.firstActive = i;
          break;
        }
      }
    }
  }

  /** Recomputes the hour and day sums of the hours and days that overlap [a, b). */
  private relevel(a: number, b: number): void {
    const perDay = PER_DAY / PER_HOUR;
    for (let c = 0; c < SUM_COLUMNS.length; c++) {
      const m5 = this.m5[c]!;
      const h1 = this.h1[c]!;
      const d1 = this.d1[c]!;
      for (let h = Math.floor(a / PER_HOUR); h < Math.ceil(b / PER_HOUR); h++) h1[h] = exactSum(m5, h * PER_HOUR, (h + 1) * PER_HOUR);
      for (let d = Math.floor(a / PER_DAY); d < Math.ceil(b / PER_DAY); d++) d1[d] = exactSum(h1, d * perDay, (d + 1) * perDay);
    }
  }

  /** Adds to `acc` the sum of `column` over buckets [a, b) (clamped to those held). */
  addSum(acc: ExactSum, column: SumColumn, a: number, b: number): void {
    const c = COLUMN_INDEX[column];
    const m5 = this.m5[c]!;
    const h1 = this.h1[c]!;
    const d1 = this.d1[c]!;
    let i = Math.max(0, a);
    const end = Math.min(this.n, b);
    while (i < end && i % PER_HOUR !== 0) acc.add(m5[i++]!);
    while (i + PER_HOUR <= end && i % PER_DAY !== 0) {
      acc.add(h1[i / PER_HOUR]!);
      i += PER_HOUR;
    }
    while (i + PER_DAY <= end) {
      acc.add(d1[i / PER_DAY]!);
      i += PER_DAY;
    }
    while (i + PER_HOUR <= end) {
      acc.add(h1[i / PER_HOUR]!);
      i += PER_HOUR;
    }
    while (i < end) acc.add(m5[i++]!);
  }

  /** The value of `column` in bucket i (0 outside those held). */
  cell(column: SumColumn, i: number): number {
    return i >= 0 && i < this.n ? this.m5[COLUMN_INDEX[column]]![i]! : 0;
  }

  /** The OI of the fills before bucket i, [long, short] (i clamped to those held). */
  fillOi(i: number): [number, number] {
    const k = Math.max(0, Math.min(this.n, i));
    return [this.cumLong[k]!, this.cumShort[k]!];
  }

  /** The latest bucket j <= i that has a snapshot (-1: none). */
  snapshotAtOrBefore(i: number): number {
    if (i < 0) return -1;
    return this.lastSnap[Math.min(i, this.n - 1)]!;
  }

  /** The time (epoch ms) of bucket i's last snapshot; NaN when it has none (or is not held). */
  snapshotTimeAt(i: number): number {
    return i >= 0 && i < this.n && this.snapAt[i]! >= 0 ? this.origin + i * FIVE_MINUTES_MS + this.snapAt[i]! : NaN;
  }

  /** Bucket j's snapshot: [epoch ms, OI long, OI short]. */
  snapshot(j: number): [number, number, number] {
    return [this.origin + j * FIVE_MINUTES_MS + this.snapAt[j]!, this.snapLong[j]!, this.snapShort[j]!];
  }
}
