/**
 * Endpoint 16's working set, and endpoint 18's live fields (issue 7): every open alpha position (a few thousand rows, from
 * sql/api/alpha-open-positions-all.sql) held in memory for one journal generation. A search is then
 * a filter, a sort and a slice in JS, instead of the `open_alpha_positions()` joins (~20 ms on the
 * bench journal, whatever the filters) on every request.
 *
 * Never stale: only appends change the tables behind those rows (fills, position snapshots, market
 * snapshots; the position refresh appends poll snapshots too), and every append's listener moves
 * the generation; the next search loads the rows again. Concurrent searches share one load.
 *
 * The answer is exactly the SQL's (test/open-positions-index.test.ts compares them): the same
 * filters, the sort value ascending or descending with NULLs last, then address ascending (ASCII
 * base58: JS string order is DuckDB's byte order), then position_id descending; `meta` over every
 * match. The SQL sorts USD keys as exact decimals and serves them as doubles: the doubles keep that
 * order (two 6-decimal values map to distinct doubles below ~4.5e9), so a set holding a larger
 * amount is not searched here (null: the route runs the SQL).
 */
import type { Row } from '../db/database.ts';
import type { Service } from '../service.ts';

/** `sort_by` of endpoint 16 → the loaded column it sorts by. */
const SORT_COLUMN = {
  size: 'current_size_usd', pnl: 'unrealized_pnl_usd', collateral: 'current_collateral_usd',
  leverage: 'leverage', opened_at: 'opened_us', liq_proximity: 'liq_proximity',
} as const;

export type OpenPositionSort = keyof typeof SORT_COLUMN;

/**
 * Distinct 6-decimal amounts below this stay distinct (and ordered) as doubles, so sorting the
 * served doubles gives the SQL's order over exact decimals (here and server/http/lifecycle-timeline.ts).
 */
export const ORDER_SAFE_USD = 4e9;

/** The filters and page of one search (validated by the route). */
export interface OpenPositionSearch {
  market_variant: string | null;
  market: string | null;
  address: string | null;
  side: string | null;
  min_size_usd: number | null;
  sort_by: OpenPositionSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** One page, the match count and the meta of every match. */
export interface OpenPositionPage {
  data: Row[];
  total: number;
  meta: { oldest_updated: string | null; last_full_refresh: string | null };
}

/** Endpoint 18's live fields, in sql/api/alpha-position-live.sql's order. */
const LIVE_FIELDS = [
  'current_size_usd', 'current_collateral_usd', 'unsettled_borrowing_usd', 'unsettled_funding_usd', 'claimable_funding_usd',
  'mark_price', 'unrealized_pnl_usd', 'liquidation_price', 'updated_at',
] as const;

/** Columns loaded for searching (and for endpoint 19), not served by the search. */
const HELPERS = ['opened_us', 'liq_proximity', 'source', 'last_seq', 'fill_count'] as const;

/** An open lifecycle as endpoints 18 and 19 need it (one generation's row). */
export interface OpenLifecycle {
  address: string;
  /** endpoint 18's live fields, sql/api/alpha-position-live.sql's row exactly */
  live: Row;
  /** the journal seq of its last fill, and how many fills it has */
  lastSeq: number;
  fillCount: number;
}

/** See the file comment. One per route list. */
export class OpenPositionsIndex {
  private generation = 0;
  private loaded: { generation: number; rows: Promise<PositionSet | null> } | null = null;
  private following = false;

  constructor(private readonly service: Service) {}

  /** The open positions of the current generation (loaded if needed); null when they cannot be searched here. */
  private rows(): Promise<PositionSet | null> {
    if (!this.following) {
      this.following = true;
      this.service.onAppend(() => {
        this.generation += 1;
      });
    }
    if (this.loaded?.generation !== this.generation) {
      const rows = this.service.db.query('api/alpha-open-positions-all').then((all) => {
        const large = (x: unknown) => typeof x === 'number' && Math.abs(x) >= ORDER_SAFE_USD;
        return all.some((r) => large(r.current_size_usd) || large(r.current_collateral_usd) || large(r.unrealized_pnl_usd))
          ? null : new PositionSet(all);
      });
      this.loaded = { generation: this.generation, rows };
      rows.catch(() => {
        if (this.loaded?.rows === rows) this.loaded = null; // the next search tries again
      });
    }
    return this.loaded!.rows;
  }

  /**
   * Endpoint 18's live fields of lifecycle `id` (sql/api/alpha-position-live.sql's row exactly):
   * null when it is not open, undefined when the route must run the SQL.
   */
  async live(id: number): Promise<Row | null | undefined> {
    const open = await this.lifecycle(id);
    return open ? open.live : open;
  }

  /**
   * Open lifecycle `id` of the current generation: null when it is not open, undefined when the
   * route must read DuckDB (the set cannot be loaded here).
   */
  async lifecycle(id: number): Promise<OpenLifecycle | null | undefined> {
    const set = await this.rows();
    if (set === null) return undefined;
    const r = set.get(id);
    if (!r) return null;
    return {
      address: r.address as string,
      live: Object.fromEntries(LIVE_FIELDS.map((f) => [f, r[f] ?? null])),
      lastSeq: r.last_seq as number,
      fillCount: r.fill_count as number,
    };
  }

  /** The search's page (the SQL's exactly), or null when the route must run the SQL. */
  async search(q: OpenPositionSearch): Promise<OpenPositionPage | null> {
    const set = await this.rows();
    if (set === null) return null;
    const sorted = set.sorted(q.sort_by, q.order);
    const matches = (r: Row): boolean => (q.market_variant === null || r.market_variant === q.market_variant)
      && (q.market === null || r.market === q.market)
      && (q.address === null || r.address === q.address)
      && (q.side === null || r.side === q.side)
      && (q.min_size_usd === null || (r.current_size_usd as number | null ?? -Infinity) >= q.min_size_usd)
      && (q.sort_by !== 'liq_proximity' || r.liq_proximity !== null);
    let total = 0;
    let oldest: string | null = null;
    let lastPoll: string | null = null;
    const data: Row[] = [];
    for (const r of sorted) {
      if (!matches(r)) continue;
      if (total >= q.offset && data.length < q.limit) {
        const row = { ...r };
        for (const h of HELPERS) delete row[h];
        data.push(row);
      }
      total += 1;
      const at = r.updated_at as string | null;
      if (at === null) continue;
      if (oldest === null || at < oldest) oldest = at;
      if (r.source === 'poll' && (lastPoll === null || at > lastPoll)) lastPoll = at;
    }
    return { data, total, meta: { oldest_updated: oldest, last_full_refresh: lastPoll } };
  }
}

/** One generation's rows and the orders built from them so far (one per sort key and direction). */
class PositionSet {
  private readonly orders = new Map<string, Row[]>();
  private byId: Map<number, Row> | undefined;

  constructor(private readonly rows: Row[]) {}

  /** The open position `id`, if it is open. */
  get(id: number): Row | undefined {
    this.byId ??= new Map(this.rows.map((r) => [r.position_id as number, r]));
    return this.byId.get(id);
  }

  /** The rows in the SQL's order for `sortBy` / `order`: the value (NULLs last), then address asc, then position_id desc. */
  sorted(sortBy: OpenPositionSort, order: 'asc' | 'desc'): Row[] {
    const name = `${sortBy} ${order}`;
    let rows = this.orders.get(name);
    if (rows) return rows;
    const key = SORT_COLUMN[sortBy];
    const dir = order === 'asc' ? 1 : -1;
    rows = [...this.rows].sort((a, b) => {
      const x = a[key] as number | null;
      const y = b[key] as number | null;
      if (x !== y) {
        if (x === null) return 1; // NULLs last in either order
        if (y === null) return -1;
        return x < y ? -dir : dir;
      }
      const p = a.address as string;
      const s = b.address as string;
      if (p !== s) return p < s ? -1 : 1;
      return (b.position_id as number) - (a.position_id as number);
    });
    this.orders.set(name, rows);
    return rows;
  }
}
