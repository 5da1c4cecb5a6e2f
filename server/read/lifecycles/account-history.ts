/**
 * `GET /v1/alpha/accounts/{address}/history` without DuckDB: an alpha address's closed lifecycles are
 * the lifecycle store's (its account files, server/read/lifecycles/lifecycle-accounts.ts, up to the store's mark)
 * plus the in-memory tail closed after it (server/read/lifecycles/closed-tail.ts); each exactly once. Filtered,
 * sorted and paged here exactly as sql/read/lifecycles/alpha-account-history.sql does; only the page's records are
 * read.
 *
 * The SQL's order: the sort value ascending (desc: `0.0 - value` ascending, i.e. the value
 * descending), NULLs last in both, then position_id descending. Its values are the DOUBLEs kept
 * here (epoch µs, the served 6-decimal USD, leverage), so the order is the same on the same
 * numbers. test/read/lifecycles/account-history-store.test.ts compares the answers with the SQL's byte for byte.
 */
import type { Row } from '../../db/database.ts';
import { K, KEY_WIDTH, type AccountRun } from './lifecycle-accounts.ts';
import type { LifecycleStore } from './lifecycle-store.ts';
import { recordRow } from './lifecycle-timeline.ts';
import { compareNullsLast } from '../../lib/nulls-last.ts';
import type { ClosedTail } from './closed-tail.ts';

/** `GET /v1/alpha/accounts/{address}/history`'s filters, order and page (validated by the route). */
export interface AccountHistoryQuery {
  market: string | null;
  market_variant: string | null;
  /** epoch ms: lifecycles opened before it are omitted (the plan's history depth) */
  since: number | null;
  sort_by: 'opened_at' | 'closed_at' | 'size' | 'pnl' | 'leverage';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Position of each sort value in a key row. */
const SORT_KEY = { opened_at: K.opened, closed_at: K.closed, size: K.size, pnl: K.pnl, leverage: K.leverage } as const;

/**
 * One page of `address`'s closed lifecycles, the match count and whether the address has any closed
 * lifecycle at all (`held`, before the filters), or undefined when the store and tail cannot answer
 * (nothing stored yet, or a tail too long to hold): the route runs the SQL.
 */
export async function historyFromStore(store: LifecycleStore, closedTail: ClosedTail, address: string, q: AccountHistoryQuery): Promise<{ data: Row[]; total: number; held: boolean } | undefined> {
  const tail = await closedTail.at(store.view());
  // the view as it is now, read with the tail before any other await: the tail drops only what a
  // segment at or below the current mark holds, and keeps everything after it
  const view = store.view();
  if (tail === null || tail.from > view.mark) return undefined;
  const later = tail.of(address, view.mark);
  const runs = [...(await view.accounts(address)), ...(later ? [later] : [])];
  // every match as (sort value, position_id, where its record is): parallel arrays
  let n = 0;
  for (const run of runs) n += run.count;
  const values = new Float64Array(n);
  const ids = new Float64Array(n);
  const where = new Float64Array(n); // run index * 2^32 + row
  n = 0;
  const sinceUs = q.since === null ? null : q.since * 1000;
  const sortKey = SORT_KEY[q.sort_by];
  runs.forEach((run, r) => {
    const k = run.keys;
    const variantOk = run.variants.map(([variant, market]) => (q.market_variant === null || variant === q.market_variant) && (q.market === null || market === q.market));
    for (let i = 0, o = 0; i < run.count; i++, o += KEY_WIDTH) {
      if (!variantOk[k[o + K.variant]!] || (sinceUs !== null && k[o + K.opened]! < sinceUs)) continue;
      values[n] = k[o + sortKey]!;
      ids[n] = k[o + K.id]!;
      where[n++] = r * 2 ** 32 + i;
    }
  });
  const page = pageOrder(values.subarray(0, n), ids, q);
  const docs = await readRecords(
    page.map((m) => where[m]!),
    runs,
  );
  const data = docs.map((doc) => recordRow(view.columns, JSON.parse(doc) as (number | string | null)[]));
  return { data, total: n, held: runs.length > 0 };
}

/**
 * The indexes of the page's matches among `values` (NaN: NULL; `ids` alongside), in the SQL's
 * order: value in `q.order` with NULLs last, then id descending; rows `q.offset` to `q.offset + q.limit`.
 */
export function pageOrder(values: Float64Array, ids: Float64Array, q: Pick<AccountHistoryQuery, 'order' | 'offset' | 'limit'>): number[] {
  const dir = q.order === 'asc' ? 1 : -1;
  const compare = (a: number, b: number): number => compareNullsLast(values[a]!, values[b]!, dir) || ids[b]! - ids[a]!;
  const n = values.length;
  const wanted = q.offset + q.limit;
  const candidates: number[] = [];
  if (wanted >= n) {
    for (let i = 0; i < n; i++) candidates.push(i);
  } else {
    // a whale has thousands of matches and a page at most 100: the page's last value is selected
    // first (NULL as +Infinity: last), and only the matches up to it are sorted, ties included
    const signed = new Float64Array(n);
    for (let i = 0; i < n; i++) signed[i] = Number.isNaN(values[i]!) ? Infinity : dir * values[i]!;
    const edge = nthSmallest(signed, wanted - 1);
    for (let i = 0; i < n; i++) if (edge === Infinity || dir * values[i]! <= edge) candidates.push(i);
  }
  return candidates.sort(compare).slice(q.offset, wanted);
}

/** The value that would be at index `k` of `a` sorted ascending (reorders `a`; Hoare's selection). */
function nthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const x = a[i]!;
        a[i++] = a[j]!;
        a[j--] = x;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** The record documents at `where` (see historyFromStore), in that order. */
async function readRecords(where: number[], runs: AccountRun[]): Promise<string[]> {
  const docs = new Array<string>(where.length);
  const byRun = new Map<number, number[]>(); // run → positions in `where`
  where.forEach((w, p) => {
    const r = Math.floor(w / 2 ** 32);
    const list = byRun.get(r);
    if (list) list.push(p);
    else byRun.set(r, [p]);
  });
  await Promise.all(
    [...byRun].map(async ([r, positions]) => {
      const read = await runs[r]!.records(positions.map((p) => where[p]! % 2 ** 32));
      positions.forEach((p, j) => {
        docs[p] = read[j]!;
      });
    }),
  );
  return docs;
}
