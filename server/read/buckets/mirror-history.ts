/**
 * `GET /v1/{protocol}/liquidations/history`, `GET /v1/{protocol}/open-interest/history` and
 * `GET /v1/{protocol}/volume/history` answered from the in-memory mirror of the 5-minute buckets
 * (server/read/buckets/history-mirror.ts), with exactly the rows of their SQL (sql/read/buckets/liquidations-history,
 * open-interest-history, volume-history; test/read/buckets/mirror-history.test.ts compares them window by
 * window). Each returns null when the mirror cannot answer (not loaded, or a sum that doubles
 * would not hold exactly): the model (bucket-history.ts) then runs the SQL.
 *
 * The mirror's part is computed synchronously as soon as the mirror is current, then the raw fills
 * of partial 5-minute pieces at the window's edges are summed, and only when the mirror says that
 * 5-minute bucket has fills in scope; they come from the mirror's cache of whole edge buckets
 * (server/read/buckets/edge-buckets.ts), which reads a bucket from sql/read/buckets/edge-fills.sql once. Amounts
 * are exact micro-dollar integers; each served amount is what DuckDB's `round(decimal, 6)::DOUBLE`
 * gives for it ({@link ExactSum.usd}: micro / 1e6 below 2^53, the cast reproduced above).
 */
import { isoFromMs } from '../../db/values.ts';
import type { HistoryMirror } from './history-mirror.ts';
import type { HistoryWindow } from '../window.ts';
import type { OiBucket } from './oi-series.ts';
import { mirrorProbe, type EdgeProbe } from './mirror-probe.ts';
import { ExactSum, Inexact, LOAD_LIMIT, variantKey, type SumColumn, type VariantBuckets } from './variant-buckets.ts';
import { FIVE_MINUTES_MS } from '../../lib/time.ts';

const floor5 = (x: number): number => Math.floor(x / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;
const ceil5 = (x: number): number => Math.ceil(x / FIVE_MINUTES_MS) * FIVE_MINUTES_MS;

/** The rollup sums of some fills of one variant (sql/derive/rollup-stage.sql), exact micro-dollars. */
type EdgeSums = Record<SumColumn | 'oi_long' | 'oi_short', number>;

/** The raw fills (of the mirror's protocol) of [lo, hi) in scope: rollup sums per variant (by market and variant), and the first fill's and first liquidation's times. */
interface Edge {
  sums: Map<string, EdgeSums>;
  first: { fill_count: number | null; liq_count: number | null };
}

/** Sums the fills in [lo, hi) (inside one 5-minute bucket) of `market` (null: every market of the mirror's protocol). */
async function edgeSums(mirror: HistoryMirror, market: string | null, lo: number, hi: number): Promise<Edge> {
  const out = new Map<string, EdgeSums>();
  const first: Edge['first'] = { fill_count: null, liq_count: null };
  const earliest = (a: number | null, t: number): number => (a === null || t < a ? t : a);
  let magnitude = 0; // Σ |amount| of every fill summed: below 2^53, every sum formed here is exact
  for (const f of await mirror.edges.fills(floor5(lo))) {
    if ((market !== null && f.market !== market) || f.time_ms < lo || f.time_ms >= hi) continue;
    const key = variantKey(f.market, f.market_variant);
    let s = out.get(key);
    if (!s) {
      s = { fill_count: 0, volume: 0, fees: 0, liq_count: 0, liq_long: 0, liq_short: 0, liq_fees: 0, oi_long: 0, oi_short: 0 };
      out.set(key, s);
    }
    const [size, fee, liqFee] = [f.size_delta, f.fee, f.liquidation_fee].map((x) => {
      if (!(Math.abs(x) < LOAD_LIMIT)) throw new Inexact('an edge fill');
      magnitude += Math.abs(x);
      return x;
    }) as [number, number, number];
    if (magnitude > Number.MAX_SAFE_INTEGER) throw new Inexact('the edge fills');
    const t = f.time_ms;
    first.fill_count = earliest(first.fill_count, t);
    if (f.liquidation) first.liq_count = earliest(first.liq_count, t);
    s.fill_count += 1;
    s.fees += fee;
    if (f.is_long) s.oi_long += size;
    if (f.is_short) s.oi_short += size;
    if (f.liquidation) {
      s.liq_count += 1;
      if (f.is_long) s.liq_long -= size;
      if (f.is_short) s.liq_short -= size;
      s.liq_fees += liqFee;
    } else s.volume += Math.abs(size);
  }
  return { sums: out, first };
}

async function scoped(mirror: HistoryMirror, market: string | null): Promise<VariantBuckets[] | null> {
  const view = await mirror.current();
  return view ? view.variants.filter((v) => market === null || v.market === market) : null;
}

/**
 * Σ `columns` per bucket of size b over [from, to) (epoch-aligned buckets, oldest first), for
 * buckets where Σ of the first column (a count) > 0: the shape of 6 and 9.
 */
async function bucketSums(
  mirror: HistoryMirror,
  market: string | null,
  from: number,
  to: number,
  b: number,
  columns: readonly ['fill_count' | 'liq_count', ...SumColumn[]],
): Promise<{ rows: { t: number; sums: ExactSum[] }[]; probe: EdgeProbe } | null> {
  const variants = await scoped(mirror, market);
  if (variants === null) return null;
  const known = new Map<number, number | null>();
  if (variants.length === 0) return { rows: [], probe: mirrorProbe(variants, columns[0], known) };
  const origin = variants[0]!.origin;
  const idx = (ms: number): number => (ms - origin) / FIVE_MINUTES_MS;
  const a5 = ceil5(from);
  const b5 = floor5(to);
  const buckets: { t: number; acc: ExactSum[] }[] = [];
  for (let t = Math.floor(from / b) * b; t < to; t += b) {
    const acc = columns.map(() => new ExactSum());
    const lo = Math.max(t, a5);
    const hi = Math.min(t + b, b5);
    if (lo < hi) for (const v of variants) columns.forEach((c, k) => v.addSum(acc[k]!, c, idx(lo), idx(hi)));
    buckets.push({ t, acc });
  }
  // the partial 5-minute pieces at the edges, read only when their bucket has rows in scope
  const edges: [number, number][] = [];
  const hasRows = (at: number): boolean => variants.some((v) => v.cell(columns[0]!, idx(at)) > 0);
  if (from < Math.min(a5, to) && hasRows(floor5(from))) edges.push([from, Math.min(a5, to)]);
  if (Math.max(b5, a5) < to && hasRows(b5)) edges.push([Math.max(b5, a5), to]);
  const read = await Promise.all(edges.map(([lo, hi]) => edgeSums(mirror, market, lo, hi)));
  edges.forEach(([lo, hi], e) => {
    const bucket = buckets[Math.floor((lo - buckets[0]!.t) / b)]!;
    for (const s of read[e]!.sums.values()) columns.forEach((c, k) => bucket.acc[k]!.add(s[c]));
    if (hi === ceil5(lo)) known.set(lo, read[e]!.first[columns[0]]); // read to the bucket's end
  });
  const rows = buckets.filter((x) => x.acc[0]!.exact > 0).map((x) => ({ t: x.t, sums: x.acc }));
  return { rows, probe: mirrorProbe(variants, columns[0], known) };
}

/** `GET /v1/alpha/volume/history`'s rows (sql/read/buckets/volume-history.sql), or null: see the file comment. */
export async function volumeFromMirror(mirror: HistoryMirror, market: string | null, w: HistoryWindow) {
  try {
    const found = await bucketSums(mirror, market, w.from, w.to, w.bucketMs, ['fill_count', 'volume', 'fees']);
    if (!found) return null;
    const rows = found.rows.map(({ t, sums: [, volume, fees] }) => ({ time: isoFromMs(t), volume_usd: volume!.usd, fees_usd: fees!.usd }));
    return { rows, probe: found.probe };
  } catch (err) {
    if (err instanceof Inexact) return null;
    throw err;
  }
}

/** `GET /v1/alpha/liquidations/history`'s rows (sql/read/buckets/liquidations-history.sql), or null: see the file comment. */
export async function liquidationsFromMirror(mirror: HistoryMirror, market: string | null, w: HistoryWindow) {
  try {
    const found = await bucketSums(mirror, market, w.from, w.to, w.bucketMs, ['liq_count', 'liq_long', 'liq_short', 'liq_fees']);
    if (!found) return null;
    const rows = found.rows.map(({ t, sums: [count, long, short, fees] }) => {
      const total = new ExactSum();
      total.addSum(long!);
      total.addSum(short!);
      return { time: isoFromMs(t), count: count!.exact, long_usd: long!.usd, short_usd: short!.usd, total_usd: total.usd, fees_usd: fees!.usd };
    });
    return { rows, probe: found.probe };
  } catch (err) {
    if (err instanceof Inexact) return null;
    throw err;
  }
}

/**
 * `GET /v1/alpha/open-interest/history`'s series (the semantics of sql/read/buckets/open-interest-history.sql
 * and oi-series.ts), or null: see the file comment. `lo` is the bucket of `from`, `wEnd` = min(to,
 * now).
 */
export async function openInterestFromMirror(mirror: HistoryMirror, market: string | null, lo: number, wEnd: number, b: number): Promise<{ rows: OiBucket[]; probe: EdgeProbe } | null> {
  try {
    const variants = await scoped(mirror, market);
    if (variants === null) return null;
    const probe = mirrorProbe(variants, 'fill_count', new Map());
    if (variants.length === 0) return { rows: [], probe };
    const origin = variants[0]!.origin;
    const idx = (ms: number): number => (ms - origin) / FIVE_MINUTES_MS;
    const loI = idx(lo);
    const hiI = idx(Math.floor(wEnd / b) * b + b);
    // rows start at lo when anything happened before it, else at the first bucket with activity
    const first = Math.min(...variants.map((v) => v.firstActive));
    const start = first < loI ? lo : first < hiI ? Math.floor((origin + first * FIVE_MINUTES_MS) / b) * b : null;
    if (start === null) return { rows: [], probe };
    const e5 = floor5(wEnd);
    const j5 = idx(e5);
    const states: { t: number; long: ExactSum; short: ExactSum; tailed: VariantBuckets[] }[] = [];
    for (let t = start; t < wEnd; t += b) {
      const end = t + b;
      const state = { t, long: new ExactSum(), short: new ExactSum(), tailed: [] as VariantBuckets[] };
      for (const v of variants) {
        // the last snapshot at or before the evaluation point min(end, wEnd): in the 5-minute bucket
        // holding wEnd only its last snapshot is known, so it counts only when before wEnd
        let j: number;
        if (end < wEnd) j = v.snapshotAtOrBefore(idx(end) - 1);
        else if (e5 === wEnd) j = v.snapshotAtOrBefore(j5 - 1);
        else {
          j = v.snapshotAtOrBefore(j5);
          if (j === j5 && v.snapshot(j)[0] >= wEnd) j = v.snapshotAtOrBefore(j5 - 1);
        }
        const [long, short] = j >= 0 ? v.snapshot(j).slice(1) : v.fillOi(Math.min(idx(end), j5));
        state.long.add(long!);
        state.short.add(short!);
        // before any snapshot the state is the replay of the fills, up to wEnd in the last bucket
        if (j < 0 && end >= wEnd && e5 < wEnd && v.cell('fill_count', j5) > 0) state.tailed.push(v);
      }
      states.push(state);
    }
    const last = states.at(-1);
    if (last && last.tailed.length > 0) {
      const tails = await edgeSums(mirror, market, e5, wEnd);
      for (const v of last.tailed) {
        const tail = tails.sums.get(variantKey(v.market, v.variant));
        if (!tail) continue;
        last.long.add(tail.oi_long);
        last.short.add(tail.oi_short);
      }
    }
    const rows = states.map(({ t, long, short }) => {
      const total = new ExactSum();
      total.addSum(long);
      total.addSum(short);
      return { time: isoFromMs(t), long_usd: long.usd, short_usd: short.usd, total_usd: total.usd };
    });
    return { rows, probe };
  } catch (err) {
    if (err instanceof Inexact) return null;
    throw err;
  }
}
