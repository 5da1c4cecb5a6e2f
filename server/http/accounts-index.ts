/**
 * Endpoint 13's working set (issue 7): every alpha Account (the alpha_accounts() shape, a few tens
 * of thousands of rows) held in memory for one journal generation, with one sorted order per
 * (sort key, direction) built on first use. A search is then a walk of that order applying the
 * filters, instead of a DuckDB query that sorted every account and then read the page's rows back
 * from storage (tens of ms, most of it decompressing scattered rows).
 *
 * Never stale: only fill steps change the `accounts` table, and an append's alpha fills name every
 * alpha account it changed. So after an append with alpha fills (the append path's listener,
 * after its commit) the snapshot is patched: those addresses' rows are read again and replace
 * theirs in the rows and in every sorted order (a binary-search insert, no re-sort). Requests wait
 * for the patch. An append touching more than {@link MAX_PATCH} addresses (a backfill) drops the
 * snapshot instead; the next search loads it whole. A snapshot whose load or patch started before
 * a later append is used by the requests that were waiting for it (an answer as of the moment they
 * asked) and is patched in turn. The order is exactly the SQL's: the sort
 * value (a double, as served) ascending or descending, then address ascending (addresses are
 * ASCII base58, so JS string order is DuckDB's byte order); values are never NULL or NaN.
 */
import type { Row } from '../db/database.ts';
import type { Service } from '../service.ts';

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

/** (value, address asc) comparator of one sort key and direction: the SQL's order. */
function comparator(sortBy: AccountSort, order: 'asc' | 'desc'): (a: Row, b: Row) => number {
  const f = SORT_FIELD[sortBy];
  const dir = order === 'asc' ? 1 : -1;
  return (a, b) => {
    const d = ((a[f] as number) - (b[f] as number)) * dir;
    if (d !== 0) return d;
    const x = a.address as string;
    const y = b.address as string;
    return x < y ? -1 : x > y ? 1 : 0;
  };
}

class Snapshot {
  private byAddress: Map<string, Row> | undefined;
  constructor(private readonly rows: Row[], private readonly orders = new Map<string, Row[]>()) {}

  /**
   * A new snapshot where the accounts of `touched` are `fresh` (their rows read after the append;
   * an address may be new), every sorted order kept sorted by removing the old rows and inserting
   * the new ones at their place.
   */
  patched(touched: ReadonlySet<string>, fresh: readonly Row[]): Snapshot {
    const keep = (r: Row) => !touched.has(r.address as string);
    const rows = this.rows.filter(keep).concat(fresh);
    const orders = new Map<string, Row[]>();
    for (const [key, order] of this.orders) {
      const [sortBy, dir] = key.split(' ') as [AccountSort, 'asc' | 'desc'];
      const cmp = comparator(sortBy, dir);
      const out = order.filter(keep);
      for (const r of fresh) {
        let lo = 0;
        let hi = out.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (cmp(out[mid]!, r) < 0) lo = mid + 1;
          else hi = mid;
        }
        out.splice(lo, 0, r);
      }
      orders.set(key, out);
    }
    return new Snapshot(rows, orders);
  }

  /** The account of an address (undefined: none), the map built on first use. */
  get(address: string): Row | undefined {
    this.byAddress ??= new Map(this.rows.map((r) => [r.address as string, r]));
    return this.byAddress.get(address);
  }

  /** The rows in (value, address asc) order for one key and direction, built once. */
  ordered(sortBy: AccountSort, order: 'asc' | 'desc'): Row[] {
    const key = `${sortBy} ${order}`;
    let out = this.orders.get(key);
    if (!out) {
      out = [...this.rows].sort(comparator(sortBy, order));
      this.orders.set(key, out);
    }
    return out;
  }
}

/** See the file comment. One per route list. */
export class AccountsIndex {
  private generation = 0;
  private current: Promise<Snapshot> | null = null;
  /** the current generation's snapshot once loaded (endpoint 14 reads it without waiting) */
  private ready: Snapshot | null = null;

  constructor(private readonly service: Service) {
    service.onAppend((fills) => {
      const touched = new Set<string>();
      for (const f of fills) if (f.protocol === 'alpha') touched.add(f.address);
      if (touched.size === 0) return; // snapshot-only appends and beta fills change no alpha account
      this.generation += 1;
      this.ready = null;
      const base = this.current;
      this.current = null;
      if (base && touched.size <= MAX_PATCH) this.track(this.patch(base, touched));
    });
  }

  /** `base` (a loaded or loading snapshot) with the accounts of `touched` read again. */
  private async patch(base: Promise<Snapshot>, touched: ReadonlySet<string>): Promise<Snapshot> {
    const [snap, fresh] = await Promise.all([base, this.service.db.query('api/alpha-accounts-of', { addresses: [...touched].join(',') })]);
    return snap.patched(touched, fresh);
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
    return this.current ?? this.track(this.service.db.query('api/alpha-accounts-all').then((rows) => new Snapshot(rows)));
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
    const search = q.search?.toLowerCase() ?? null;
    const rows: Row[] = [];
    let total = 0;
    for (const r of snap.ordered(q.sortBy, q.order)) {
      if (q.minTrades !== null && (r.trades as number) < q.minTrades) continue;
      if (q.hasActive !== null && ((r.open_positions as number) > 0) !== q.hasActive) continue;
      if (search !== null && !(r.address as string).toLowerCase().startsWith(search)) continue;
      if (total >= q.offset && rows.length < q.limit) rows.push(r);
      total += 1;
    }
    return { rows, total };
  }
}
