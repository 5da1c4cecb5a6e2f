/**
 * Endpoint 13's working set (issue 7): every alpha Account (the alpha_accounts() shape, a few tens
 * of thousands of rows) held in memory for one journal generation, with one sorted order per
 * (sort key, direction) built on first use. A search is then a walk of that order applying the
 * filters, instead of a DuckDB query that sorted every account and then read the page's rows back
 * from storage (tens of ms, most of it decompressing scattered rows).
 *
 * Never stale: every append with alpha fills (the append path's listener, after its commit) drops
 * the snapshot (nothing else changes the `accounts` table), and a
 * snapshot whose load started before an append is used by the requests that were waiting for it
 * (an answer as of the moment they asked) but not kept. The order is exactly the SQL's: the sort
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

class Snapshot {
  private readonly orders = new Map<string, Row[]>();
  private byAddress: Map<string, Row> | undefined;
  constructor(private readonly rows: Row[]) {}

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
      const f = SORT_FIELD[sortBy];
      const dir = order === 'asc' ? 1 : -1;
      out = [...this.rows].sort((a, b) => {
        const d = ((a[f] as number) - (b[f] as number)) * dir;
        if (d !== 0) return d;
        const x = a.address as string;
        const y = b.address as string;
        return x < y ? -1 : x > y ? 1 : 0;
      });
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
    // accounts change only through fill steps, and alpha accounts only through alpha fills:
    // snapshot-only appends (every minute) and beta fills leave the snapshot current
    service.onAppend((fills) => {
      if (!fills.some((f) => f.protocol === 'alpha')) return;
      this.generation += 1;
      this.current = null;
      this.ready = null;
    });
  }

  private snapshot(): Promise<Snapshot> {
    if (this.current) return this.current;
    const generation = this.generation;
    const load = this.service.db.query('api/alpha-accounts-all').then((rows) => new Snapshot(rows));
    this.current = load;
    // an append during the load: this snapshot serves its waiters but is not kept
    void load.then((snap) => {
      if (this.generation !== generation) {
        if (this.current === load) this.current = null;
      } else this.ready = snap;
    }, () => {
      if (this.current === load) this.current = null;
    });
    return load;
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
