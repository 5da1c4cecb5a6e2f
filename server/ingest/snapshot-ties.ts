import type { IncomingBatch } from '../journal/rows.ts';
import { isCoded, type CodedStrings } from './columns.ts';

/** Runs of one instant up to this long are checked pairwise; longer ones through a Set. */
const PAIRWISE_RUN = 32;

/**
 * True when the batch's market snapshots may hold two rows of one market key (protocol, market,
 * market variant) at one instant, so the append path must collapse them (keep the last,
 * sql/ingest/collapse-same-instant-market-snapshots.sql). A source emits its snapshots in time
 * order, one per market per instant, so this is a single pass comparing the rows of each instant
 * (a run of equal times); rows out of time order are not checked and answer true, which leaves
 * the decision to the SQL. Why a check first: the collapse statement aggregates the whole batch
 * (~0.1 s per month of snapshots), and a backfill stages months of them with no tie at all.
 */
export function mayHaveSameInstantTies(batch: IncomingBatch): boolean {
  const block = batch.marketSnapshotColumns;
  if (block && block.length > 1) {
    const time = block.columns.time;
    const [p, m, v] = ['protocol', 'market', 'market_variant'].map((name) => block.columns[name]);
    // validated columns (server/ingest/validate.ts); anything else: let the SQL decide
    if (!(time instanceof Float64Array) || !p || !m || !v || !isCoded(p) || !isCoded(m) || !isCoded(v)) return true;
    return tiesInRuns(block.length, (i) => time[i]!, codedKey(p, m, v));
  }
  const rows = batch.marketSnapshots;
  return tiesInRuns(
    rows.length,
    (i) => rows[i]!.time,
    (i) => {
      const r = rows[i]!;
      return `${r.protocol}\u0000${r.market}\u0000${r.market_variant === null ? '\u0001' : r.market_variant}`;
    },
  );
}

/** One number per market key of a coded block: the three codes as digits of mixed radix (a null
 * variant is code -1, hence the + 1), each code first mapped to the first code of its string (a
 * source's dictionary may repeat a string). */
function codedKey(p: CodedStrings, m: CodedStrings, v: CodedStrings): (i: number) => number {
  const [pc, mc, vc] = [p, m, v].map(firstCodes) as [Int32Array, Int32Array, Int32Array];
  const markets = mc.length;
  const variants = vc.length + 1;
  return (i) => {
    const variant = v.codes[i]!;
    return (pc[p.codes[i]!]! * markets + mc[m.codes[i]!]!) * variants + (variant < 0 ? 0 : vc[variant]! + 1);
  };
}

/** For each code of a dictionary, the first code with the same string. */
function firstCodes(c: CodedStrings): Int32Array {
  const first = new Map<string, number>();
  return Int32Array.from(c.dict, (s, i) => first.get(s) ?? (first.set(s, i), i));
}

/** True when two rows of one run of equal times share a key, or the times are not in order. */
function tiesInRuns<K>(n: number, timeAt: (i: number) => number, keyAt: (i: number) => K): boolean {
  const run: K[] = []; // the keys of the current run, while it is short
  let seen: Set<K> | undefined; // and once it is long
  let previous = n > 0 ? timeAt(0) : 0;
  if (n > 0) run.push(keyAt(0));
  for (let i = 1; i < n; i++) {
    const t = timeAt(i);
    const key = keyAt(i);
    if (t !== previous) {
      if (t < previous) return true;
      previous = t;
      run.length = 0;
      run.push(key);
      seen = undefined;
      continue;
    }
    if (seen !== undefined) {
      if (seen.has(key)) return true;
      seen.add(key);
      continue;
    }
    for (let j = 0; j < run.length; j++) if (run[j] === key) return true;
    run.push(key);
    if (run.length >= PAIRWISE_RUN) seen = new Set(run);
  }
  return false;
}
