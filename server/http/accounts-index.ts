/**
 * Endpoint 13's working set (issue 7): every alpha Account (the alpha_accounts() shape, a few tens
 * of thousands of rows) held in memory for one journal generation, with one sorted order per
 * (sort key, direction), all built when it loads. A search is then a walk of that order applying the
 * filters (with an address prefix, of the few rows a binary search finds, sorted the same way),
 * instead of a DuckDB query that sorted every account and then read the page's rows back from
 * storage (tens of ms, most of it decompressing scattered rows).
 *
 * Never stale: only fill steps change the `accounts` table, and an append's alpha fills name every
 * alpha account it changed. So after an append with alpha fills (the append path's listener,
 * after its commit) the snapshot is patched in place: those addresses' rows (handed over by the
 * append, else read again) replace theirs in the rows and in every sorted order (a binary-search
 * insert, no re-sort). Requests wait for the patch. An append touching more than
 * {@link MAX_PATCH} addresses (a backfill) drops the snapshot instead; the next search loads it
 * whole. Requests that were waiting for a load or patch that a later append then patches again
 * may see that later state (never an older one). The order is exactly the SQL's: the sort
 * value (a double, as served) ascending or descending, then address ascending (addresses are
 * ASCII base58, so JS string order is DuckDB's byte order); values are never NULL or NaN.
 */
import type { Row } from '../db/database.ts';
import { AccountTableBuilder, type AccountTable } from './account-table.ts';
import { prefixIndexOf, withFreshRows, rowsWithPrefix, type PrefixIndex } from './address-prefix-index.ts';
import type { Service } from '../service.ts';
import { yieldToLoop } from './waiting.ts';
import { log } from '../log.ts';

/** `sort_by` of endpoint 13 → the Account field it sorts by. */
const SORT_FIELD = {
  net_pnl: 'net_pnl_usd', volume: 'volume_usd', win_rate: 'win_rate', positions: 'positions',
  current_notional: 'open_notional_usd',
} as const;

export type AccountSort = keyof typeof SORT_FIELD;

/** The filters and page of one search. */
export interface AccountSearch {
  sortBy: AccountSort;
  order: 'asc' | 'desc';
  minTrades: number | null;
  hasActive: boolean | null;
  search: string | null;
  offset: number;
  limit: number;
}

/** Above this many touched addresses an append reloads the snapshot rather than patching it. */
export const MAX_PATCH = 2000;

/** Every (sort key, direction) a search can ask for. */
const ORDERS: [AccountSort, 'asc' | 'desc'][] = (Object.keys(SORT_FIELD) as AccountSort[]).flatMap((k) => [[k, 'asc'], [k, 'desc']] as [AccountSort, 'asc' | 'desc'][]);


/** (value, address asc) comparator over row indices of `table`, one sort key and direction: the SQL's order. */
function comparator(table: AccountTable, sortBy: AccountSort, order: 'asc' | 'desc'): (a: number, b: number) => number {
  const values = table.numbers(SORT_FIELD[sortBy]);
  const addresses = table.strings('address');
  const dir = order === 'asc' ? 1 : -1;
  return (a, b) => {
    const d = (values[a]! - values[b]!) * dir;
    if (d !== 0) return d;
    const x = addresses[a]!;
    const y = addresses[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

/** The first index in [from, to) where `sorted` (ascending by `cmp`) does not come before `row` (`to` if none). */
function firstNotBefore(sorted: Int32Array, row: number, cmp: (a: number, b: number) => number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(sorted[mid]!, row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

class Snapshot {
  /** address → row index, built on first use and kept up to date by {@link patch} (a row keeps its index) */
  private byAddress: Map<string, number> | undefined;
  /** row indices in each (sort key, direction) order built so far; `prefix`: see {@link withPrefix} */
  constructor(readonly table: AccountTable, private readonly orders = new Map<string, Int32Array>(), private prefix?: PrefixIndex) {}

  /**
   * Makes the accounts of `touched` `fresh` (their rows read after the append; an address may be
   * new), in place: each existing account keeps its row index with its new values, new ones are
   * appended, and in every sorted order the changed rows leave their place and are inserted at
   * their new one (a binary search each, then the rows between shifted by a memmove). False, and
   * nothing changed, when a touched account has no fresh row (accounts are never removed: the
   * caller loads the snapshot anew rather than guess).
   *
   * Why in place: the patch runs on the main thread after every live append with alpha fills, and
   * requests wait for it. Compacting the rows and splicing every order cost ~100 ms on the bench
   * journal's 91k accounts; copying the columns and orders whole, ~25 MB per append, 16-98 ms
   * with the garbage collection it caused. Readers never hold a snapshot across an await, so in
   * place is safe: a request waiting for an older patch simply sees the newer accounts.
   */
  patch(touched: ReadonlySet<string>, fresh: readonly Row[]): boolean {
    const at = this.addressMap();
    const replaced = new Map<number, Row>();
    const added: Row[] = [];
    for (const row of fresh) {
      const i = at.get(row.address as string);
      if (i !== undefined) replaced.set(i, row);
      else added.push(row);
    }
    let existing = 0;
    for (const a of touched) if (at.has(a)) existing += 1;
    if (replaced.size !== existing) return false;
    const before = this.table.length;
    const { table } = this;
    table.apply(replaced, added);
    const moved = new Uint8Array(table.length);
    const movedRows: number[] = [...replaced.keys()];
    for (let r = before; r < table.length; r++) movedRows.push(r);
    for (const r of movedRows) moved[r] = 1;
    for (const [key, old] of this.orders) {
      const [sortBy, dir] = key.split(' ') as [AccountSort, 'asc' | 'desc'];
      const cmp = comparator(table, sortBy, dir);
      let order = old;
      if (table.length > old.length) (order = new Int32Array(table.length)).set(old);
      // the unchanged rows keep their values, so they stay in order: close them up at the front
      let m = 0;
      for (let j = 0; j < before; j++) if (!moved[order[j]!]) order[m++] = order[j]!;
      // then the changed rows, ascending, each at its binary-searched place among them, from the
      // last: the rows after a place shift right by the number of changed rows still to place
      const rows = movedRows.sort(cmp);
      const places = rows.map((r) => firstNotBefore(order, r, cmp, 0, m));
      let end = m;
      for (let q = rows.length - 1; q >= 0; q--) {
        const p = places[q]!;
        order.copyWithin(p + q + 1, p, end);
        order[p + q] = rows[q]!;
        end = p;
      }
      this.orders.set(key, order);
    }
    added.forEach((row, k) => at.set(row.address as string, before + k));
    if (this.prefix && added.length > 0) {
      this.prefix = withFreshRows(this.prefix, table, before);
    }
    return true;
  }

  private addressMap(): Map<string, number> {
    return (this.byAddress ??= new Map(this.table.strings('address').map((a, i) => [a, i])));
  }

  /** The account of an address (undefined: none). */
  get(address: string): Row | undefined {
    const i = this.addressMap().get(address);
    return i === undefined || i >= this.table.length ? undefined : this.table.row(i);
  }

  /** The rows whose lower-cased address starts with `prefix` (lower case), in address order. */
  withPrefix(prefix: string): number[] {
    this.prefix ??= prefixIndexOf(this.table);
    return rowsWithPrefix(this.prefix, prefix);
  }

  /** The row indices in (value, address asc) order for one key and direction (built by
   * {@link buildAll} when the snapshot loaded, and kept through patches). */
  ordered(sortBy: AccountSort, order: 'asc' | 'desc'): Int32Array {
    const out = this.orders.get(`${sortBy} ${order}`);
    if (!out) throw new Error(`accounts snapshot: no ${sortBy} ${order} order (buildAll not run)`);
    return out;
  }

  /**
   * Builds every sorted order (and the prefix index) up front, yielding to the event loop
   * between them, so that no search pays for a sort (tens of ms each over ~90k accounts, which
   * put endpoint 13's p99 on the first use of each order). Ties go by address rank: the order of
   * {@link comparator}, at number cost.
   */
  async buildAll(): Promise<void> {
    const rows = (): number[] => Array.from({ length: this.table.length }, (_, i) => i);
    const rank = new Int32Array(this.table.length);
    const addresses = this.table.strings('address');
    rows().sort((a, b) => (addresses[a]! < addresses[b]! ? -1 : addresses[a]! > addresses[b]! ? 1 : 0))
      .forEach((row, r) => (rank[row] = r));
    for (const [sortBy, order] of ORDERS) {
      await yieldToLoop();
      const values = this.table.numbers(SORT_FIELD[sortBy]);
      const dir = order === 'asc' ? 1 : -1;
      this.orders.set(`${sortBy} ${order}`, Int32Array.from(rows().sort((a, b) => (values[a]! - values[b]!) * dir || rank[a]! - rank[b]!)));
    }
    await yieldToLoop();
    this.prefix ??= prefixIndexOf(this.table);
  }
}

/** Loads every alpha account into a table, chunk by chunk. */
async function loadTable(service: Service): Promise<AccountTable> {
  const builder = new AccountTableBuilder();
  await service.db.queryChunks('api/alpha-accounts-all', {}, (rows) => builder.addRows(rows));
  return builder.build();
}

/** See the file comment. One per route list. */
export class AccountsIndex {
  private generation = 0;
  private current: Promise<Snapshot> | null = null;
  /** the current generation's snapshot once loaded (endpoint 14 reads it without waiting) */
  private ready: Snapshot | null = null;

  constructor(private readonly service: Service) {
    service.watchAlphaAccounts(MAX_PATCH);
    service.onAppend((fills, changed) => {
      const touched = new Set<string>();
      for (const f of fills) if (f.protocol === 'alpha') touched.add(f.address);
      if (touched.size === 0) return; // snapshot-only appends and beta fills change no alpha account
      this.generation += 1;
      this.ready = null;
      const base = this.current;
      this.current = null;
      if (base && touched.size <= MAX_PATCH) this.track(this.patch(base, touched, changed));
    });
  }

  /**
   * `base` (a loaded or loading snapshot) with the accounts of `touched`: `changed`, the rows the
   * append handed over (append.ts watchAlphaAccounts), else read again from the derived state.
   */
  private async patch(base: Promise<Snapshot>, touched: ReadonlySet<string>, changed: readonly Row[] | undefined): Promise<Snapshot> {
    const t0 = performance.now();
    const [snap, fresh] = await Promise.all([base, changed ?? this.service.db.query('api/alpha-accounts-of', { addresses: [...touched].join(',') })]);
    const t1 = performance.now();
    const patched = snap.patch(touched, fresh);
    log.debug(`accounts index: ${touched.size} accounts ${changed ? 'handed over' : 'read'} in ${(t1 - t0).toFixed(1)} ms, patched in ${(performance.now() - t1).toFixed(1)} ms`);
    return patched ? snap : this.load();
  }

  /** Makes `load` the current generation's snapshot: kept (and `ready`) unless an append came meanwhile. */
  private track(load: Promise<Snapshot>): Promise<Snapshot> {
    const generation = this.generation;
    this.current = load;
    void load.then((snap) => {
      if (this.generation === generation) this.ready = snap;
    }, () => {
      if (this.current === load) this.current = null;
    });
    return load;
  }

  private snapshot(): Promise<Snapshot> {
    // an append during the load: this snapshot serves its waiters, and the append patches it
    return this.current ?? this.track(this.load());
  }

  /** Every alpha account read anew, with every order built. */
  private async load(): Promise<Snapshot> {
    const snap = new Snapshot(await loadTable(this.service));
    await snap.buildAll();
    return snap;
  }

  /**
   * Endpoint 14 from the current generation's snapshot when one is loaded: the account (null when
   * the address has none); undefined when there is no loaded snapshot (ask DuckDB; no load is
   * started for a single account).
   */
  peek(address: string): Row | null | undefined {
    return this.ready ? this.ready.get(address) ?? null : undefined;
  }

  /** One page of matching accounts (in order) and the number of matches. */
  async search(q: AccountSearch): Promise<{ rows: Row[]; total: number }> {
    const snap = await this.snapshot();
    const { table } = snap;
    const search = q.search?.toLowerCase() ?? null;
    const trades = table.numbers('trades');
    const open = table.numbers('open_positions');
    if (search === null && q.minTrades === null && q.hasActive === null) {
      // no filter: the page is a slice of the order, the total its length (no walk)
      const order = snap.ordered(q.sortBy, q.order);
      return { rows: Array.from(order.subarray(q.offset, q.offset + q.limit), (i) => table.row(i)), total: order.length };
    }
    // a prefix narrows the rows to a handful (a binary search); sorting them by the order's own
    // comparator puts them in the order's sequence. Without one, the built order is walked.
    // (always an Int32Array, walked by index: one array kind keeps this loop fast)
    const candidates = search === null
      ? snap.ordered(q.sortBy, q.order)
      : Int32Array.from(snap.withPrefix(search).sort(comparator(table, q.sortBy, q.order)));
    const { minTrades, hasActive, offset, limit } = q;
    const rows: Row[] = [];
    let total = 0;
    for (let j = 0; j < candidates.length; j++) {
      const i = candidates[j]!;
      if (minTrades !== null && trades[i]! < minTrades) continue;
      if (hasActive !== null && open[i]! > 0 !== hasActive) continue;
      if (total >= offset && rows.length < limit) rows.push(table.row(i));
      total += 1;
    }
    return { rows, total };
  }
}
