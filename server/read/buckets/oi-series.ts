/**
 * `GET /v1/alpha/open-interest/history`'s carry-forward: sql/read/buckets/open-interest-history.sql returns, per
 * variant, the pieces of the open-interest computation (see its header); this builds the series from
 * them exactly as the SQL formerly did with a grid, window functions and joins, which DuckDB had to
 * bind and optimize again on every request (prepared statements with parameters are re-planned).
 *
 * Per variant k and bucket start t in [lo, w_end) (step b), the state at e = min(t + b, w_end):
 *  - the last snapshot of buckets ≤ t in the window, if any;
 *  - else the seed (its last snapshot before lo), if any;
 *  - else Σ its deltas before lo + Σ its window deltas of buckets ≤ t, plus the tail (raw fills of
 *    the running 5 minutes at w_end) in the bucket that reaches w_end.
 * Rows start at lo when anything happened before lo (deltas, or a snapshot with OI > 0), else at
 * the bucket of the window's first delta or OI > 0 snapshot (none: no rows); then no gaps. Sums are
 * exact micro-dollar BigInts; each output amount is what DuckDB's `round(decimal, 6)::DOUBLE`
 * gives for it (micro / 1e6 below 2^53 micro-dollars, its cast reproduced above), as every other
 * served amount and the mirror's (mirror-history.ts).
 */
import type { Row } from '../../db/database.ts';
import { servedUsd } from '../../db/decimal-double.ts';
import { isoFromMs } from '../../db/values.ts';

/** One bucket of `GET /v1/alpha/open-interest/history`. */
export interface OiBucket {
  time: string;
  long_usd: number;
  short_usd: number;
  total_usd: number;
}

interface Pair {
  l: bigint;
  s: bigint;
}

const pairOf = (r: Row): Pair => ({ l: BigInt(r.l as string), s: BigInt(r.s as string) });

/** Builds the series of [lo, w_end) with bucket size b from the query's tagged rows. */
export function oiSeries(rows: readonly Row[], lo: number, wEnd: number, b: number): OiBucket[] {
  const snaps = new Map<string, Map<number, Pair>>();
  const deltas = new Map<string, Map<number, Pair>>();
  const seed = new Map<string, Pair>();
  const before = new Map<string, Pair>();
  const tail = new Map<string, Pair>();
  const scope = new Set<string>();
  let first: number | null = null;
  let anyBefore = false;
  for (const r of rows) {
    const k = r.k as string;
    scope.add(k);
    switch (r.kind) {
      case 'ws':
      case 'wd': {
        const into = r.kind === 'ws' ? snaps : deltas;
        let m = into.get(k);
        if (!m) into.set(k, (m = new Map()));
        m.set(r.t as number, pairOf(r));
        break;
      }
      case 'sc':
        if (r.t !== null && (first === null || (r.t as number) < first)) first = r.t as number;
        break;
      case 'seed':
        seed.set(k, pairOf(r));
        if (r.f === true) anyBefore = true;
        break;
      case 'bd':
        before.set(k, pairOf(r));
        anyBefore = true;
        break;
      case 'tail':
        tail.set(k, pairOf(r));
        break;
    }
  }
  const start = anyBefore ? lo : first === null ? null : Math.floor(first / b) * b;
  if (start === null || scope.size === 0) return [];
  const buckets: number[] = [];
  for (let t = lo; t < wEnd; t += b) buckets.push(t);
  const totalL = new Map<number, bigint>();
  const totalS = new Map<number, bigint>();
  for (const k of scope) {
    const ks = snaps.get(k);
    const kd = deltas.get(k);
    const sd = seed.get(k);
    const bd = before.get(k) ?? { l: 0n, s: 0n };
    const tl = tail.get(k) ?? { l: 0n, s: 0n };
    let snap: Pair | undefined;
    let dl = 0n;
    let ds = 0n;
    for (const t of buckets) {
      snap = ks?.get(t) ?? snap;
      const d = kd?.get(t);
      if (d) {
        dl += d.l;
        ds += d.s;
      }
      if (t < start) continue;
      let l: bigint;
      let s: bigint;
      if (snap) ({ l, s } = snap);
      else if (sd) ({ l, s } = sd);
      else {
        const atEnd = t + b >= wEnd;
        l = bd.l + dl + (atEnd ? tl.l : 0n);
        s = bd.s + ds + (atEnd ? tl.s : 0n);
      }
      totalL.set(t, (totalL.get(t) ?? 0n) + l);
      totalS.set(t, (totalS.get(t) ?? 0n) + s);
    }
  }
  return buckets
    .filter((t) => t >= start)
    .map((t) => {
      const l = totalL.get(t)!;
      const s = totalS.get(t)!;
      return { time: isoFromMs(t), long_usd: servedUsd(l), short_usd: servedUsd(s), total_usd: servedUsd(l + s) };
    });
}
