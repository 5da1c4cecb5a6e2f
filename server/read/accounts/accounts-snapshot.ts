/**
 * `GET /v1/alpha/accounts/search`'s in-memory snapshot of every alpha account (../accounts-index.ts
 * keeps one per journal generation): the rows in columns, one sorted order per (sort key, direction),
 * an address-prefix index, and `GET /v1/alpha/accounts/stats`'s exact totals once asked for, all
 * patched in place after each live append.
 */
import type { Row } from '../../db/database.ts';
import type { AccountTable } from './account-table.ts';
import { prefixIndexOf, withFreshRows, rowsWithPrefix, type PrefixIndex } from './address-prefix-index.ts';
import { TableTotals } from './accounts-summary.ts';
import { yieldToLoop } from '../../lib/waiting.ts';

/** `sort_by` of `GET /v1/alpha/accounts/search` → the Account field it sorts by. */
const SORT_FIELD = {
  net_pnl: 'net_pnl_usd',
  volume: 'volume_usd',
  win_rate: 'win_rate',
  positions: 'positions',
  current_notional: 'open_notional_usd',
} as const;

export type AccountSort = keyof typeof SORT_FIELD;

/** Every (sort key, direction) a search can ask for. */
const ORDERS: [AccountSort, 'asc' | 'desc'][] = (Object.keys(SORT_FIELD) as AccountSort[]).flatMap(
  (k) =>
    [
      [k, 'asc'],
      [k, 'desc'],
    ] as [AccountSort, 'asc' | 'desc'][],
);

/** (value, address asc) comparator over row indices of `table`, one sort key and direction: the SQL's order. */
export function comparator(table: AccountTable, sortBy: AccountSort, order: 'asc' | 'desc'): (a: number, b: number) => number {
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

/** See the file comment. */
export class Snapshot {
  /** address → row index, built on first use and kept up to date by {@link patch} (a row keeps its index) */
  private byAddress: Map<string, number> | undefined;
  /** `GET /v1/alpha/accounts/stats`'s totals, built by {@link buildAll} and kept up to date by {@link patch} */
  private totalsKept: TableTotals | undefined;
  /** row indices in each (sort key, direction) order built so far; `prefix`: see {@link withPrefix} */
  constructor(
    readonly table: AccountTable,
    private readonly orders = new Map<string, Int32Array>(),
    private prefix?: PrefixIndex,
  ) {}

  /** The exact totals of every account (built with the orders by {@link buildAll}); undefined
   * when they cannot be exact (the caller asks the SQL). */
  totals(): TableTotals | undefined {
    return this.totalsKept?.exact ? this.totalsKept : undefined;
  }

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
    const replacedRows = [...replaced.keys()];
    // where each changed row is in each order, found by binary search while the table still has
    // its old values (null: not found where its values say, so that order is closed up by a scan)
    const oldPlaces = new Map<string, number[] | null>();
    for (const [key, order] of this.orders) {
      const [sortBy, dir] = key.split(' ') as [AccountSort, 'asc' | 'desc'];
      const cmp = comparator(table, sortBy, dir);
      const places = replacedRows.map((r) => firstNotBefore(order, r, cmp, 0, before));
      oldPlaces.set(key, places.every((p, k) => order[p] === replacedRows[k]) ? places.sort((a, b) => a - b) : null);
    }
    this.totalsKept?.remove(table, replacedRows);
    table.apply(replaced, added);
    const movedRows: number[] = [...replacedRows];
    for (let r = before; r < table.length; r++) movedRows.push(r);
    this.totalsKept?.add(table, movedRows);
    for (const [key, old] of this.orders) {
      const [sortBy, dir] = key.split(' ') as [AccountSort, 'asc' | 'desc'];
      const cmp = comparator(table, sortBy, dir);
      let order = old;
      if (table.length > old.length) (order = new Int32Array(table.length)).set(old);
      // the unchanged rows keep their values, so they stay in order: close them up at the front,
      // each run between two changed rows moved by one memmove (a JS scan of every row, per order
      // and per live append, was most of a patch's 3.4-5.8 ms on the bench journal)
      const removed = oldPlaces.get(key);
      let m = removed && removed.length > 0 ? removed[0]! : before;
      if (removed) {
        for (let q = 0; q < removed.length; q++) {
          const from = removed[q]! + 1;
          const to = q + 1 < removed.length ? removed[q + 1]! : before;
          order.copyWithin(m, from, to);
          m += to - from;
        }
      } else {
        const moved = new Uint8Array(table.length);
        for (const r of replacedRows) moved[r] = 1;
        m = 0;
        for (let j = 0; j < before; j++) if (!moved[order[j]!]) order[m++] = order[j]!;
      }
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
   * Builds every sorted order (and the prefix index) up front, yielding to the event loop between them,
   * so that no search pays for a sort (tens of ms each over ~90k accounts, which put
   * `GET /v1/alpha/accounts/search`'s p99 on the first use of each order). Ties go by address rank: the
   * order of {@link comparator}, at number cost.
   */
  async buildAll(): Promise<void> {
    const rows = (): number[] => Array.from({ length: this.table.length }, (_, i) => i);
    const rank = new Int32Array(this.table.length);
    const addresses = this.table.strings('address');
    rows()
      .sort((a, b) => (addresses[a]! < addresses[b]! ? -1 : addresses[a]! > addresses[b]! ? 1 : 0))
      .forEach((row, r) => (rank[row] = r));
    for (const [sortBy, order] of ORDERS) {
      await yieldToLoop();
      const values = this.table.numbers(SORT_FIELD[sortBy]);
      const dir = order === 'asc' ? 1 : -1;
      this.orders.set(`${sortBy} ${order}`, Int32Array.from(rows().sort((a, b) => (values[a]! - values[b]!) * dir || rank[a]! - rank[b]!)));
    }
    await yieldToLoop();
    this.prefix ??= prefixIndexOf(this.table);
    // `GET /v1/alpha/accounts/stats`'s totals too: ~1 ms warm, but ~15 ms the first time the code runs
    await yieldToLoop();
    this.totalsKept = TableTotals.of(this.table);
  }
}
