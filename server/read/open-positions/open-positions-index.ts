/**
 * `GET /v1/{protocol}/open-positions/search`'s working set, `GET /v1/{protocol}/open-positions/stats`'s summary and `GET /v1/{protocol}/positions/{address}/{id}`'s live fields: every open position of one protocol (a few thousand rows, from
 * sql/read/open-positions/alpha-open-positions-all.sql) held in memory for one journal generation. A search is then
 * a filter, a sort and a slice in JS, instead of the `open_positions_of()` joins (~20 ms on the
 * bench journal, whatever the filters) on every request.
 *
 * Never stale: only appends change the tables behind those rows (fills, position snapshots, market
 * snapshots; the position refresh appends poll snapshots too), and every append's listener moves
 * the generation; the rows are loaded again right after it when a request read the last set, else
 * by the next search ({@link OpenPositionsIndex.open}). Concurrent searches share one load.
 *
 * The answer is exactly the SQL's (test/read/open-positions/open-positions-index.test.ts compares them): the same
 * filters, the sort value ascending or descending with NULLs last, then address ascending (ASCII
 * base58: JS string order is DuckDB's byte order), then position_id descending; `meta` over every
 * match. The SQL sorts USD keys as exact decimals and serves them as doubles: the doubles keep that
 * order (two 6-decimal values map to distinct doubles below ~4.5e9), so a set holding a larger
 * amount is not searched here (null: the route runs the SQL).
 */
import type { Row } from '../../db/database.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { PositionSet, type OpenPositionPage, type OpenPositionSearch, type PositionsSummary } from './open-position-set.ts';

/**
 * Distinct 6-decimal amounts below this stay distinct (and ordered) as doubles, so sorting the
 * served doubles gives the SQL's order over exact decimals (here and server/read/lifecycles/lifecycle-timeline.ts).
 */
export const ORDER_SAFE_USD = 4e9;

/** `GET /v1/alpha/positions/{address}/{id}`'s live fields, in sql/api/alpha-position-live.sql's order. */
const LIVE_FIELDS = [
  'current_size_usd',
  'current_collateral_usd',
  'unsettled_borrowing_usd',
  'unsettled_funding_usd',
  'claimable_funding_usd',
  'mark_price',
  'unrealized_pnl_usd',
  'liquidation_price',
  'updated_at',
] as const;

/** An open lifecycle as `GET /v1/alpha/positions/{address}/{id}` and `GET /v1/alpha/positions/{address}/{id}/lifecycle` need it (one generation's row). */
export interface OpenLifecycle {
  address: string;
  /** `GET /v1/alpha/positions/{address}/{id}`'s live fields, sql/api/alpha-position-live.sql's row exactly */
  live: Row;
  /** the journal seq of its last fill, and how many fills it has */
  lastSeq: number;
  fillCount: number;
}

/** See the file comment. One per route list and protocol. */
export class OpenPositionsIndex {
  private generation = 0;
  /** the set of one generation, loading or loaded (`ready` once it has) */
  private loaded: { generation: number; rows: Promise<PositionSet | null>; ready?: PositionSet | null } | null = null;
  private following = false;
  /** set by {@link open}: an append reloads a set a request read, without waiting for the next request */
  private eager = false;
  /** whether a request read the set since the last load began */
  private used = false;

  constructor(
    private readonly service: Service,
    readonly protocol: Protocol = 'alpha',
  ) {}

  /**
   * Loads the set now rather than at the first request (the app calls it at start), and from then
   * on again right after each append whose previous set a request read, so that a search after
   * an append mostly finds the set loaded or loading. The load's garbage (~14 MB of row
   * conversion on the bench journal) is collected then, not inside the first searches' answers.
   * A set nobody reads is not reloaded: the next request loads it, as without this call.
   */
  open(): void {
    this.eager = true;
    void this.load().catch(() => undefined); // a failure is retried by the next request
  }

  /**
   * Whether the last load begun has finished (false before any, and while one runs). A set an
   * append made old counts as warm: nothing waits for it until a request asks (then it loads).
   */
  warm(): boolean {
    return this.loaded !== null && this.loaded.ready !== undefined;
  }

  private follow(): void {
    if (this.following) return;
    this.following = true;
    this.service.onAppend(() => {
      this.generation += 1;
      if (this.eager && this.used) {
        this.used = false;
        void this.load().catch(() => undefined);
      }
    });
  }

  /** The open positions of the current generation for a request (loaded if needed); null when they cannot be searched here. */
  private rows(): Promise<PositionSet | null> {
    this.used = true;
    return this.load();
  }

  /** The current generation's set, loading it if no load of it has begun (concurrent callers share one). */
  private load(): Promise<PositionSet | null> {
    this.follow();
    if (this.loaded?.generation !== this.generation) {
      const rows = this.service.db.query('read/open-positions/alpha-open-positions-all', { protocol: this.protocol }).then((all) => {
        const large = (x: unknown) => typeof x === 'number' && Math.abs(x) >= ORDER_SAFE_USD;
        return all.some((r) => large(r.current_size_usd) || large(r.current_collateral_usd) || large(r.unrealized_pnl_usd)) ? null : new PositionSet(all);
      });
      const loaded: NonNullable<typeof this.loaded> = { generation: this.generation, rows };
      this.loaded = loaded;
      rows.then(
        (set) => {
          loaded.ready = set;
        },
        () => {
          if (this.loaded === loaded) this.loaded = null; // the next search tries again
        },
      );
    }
    return this.loaded!.rows;
  }

  /**
   * `GET /v1/alpha/positions/{address}/{id}`'s live fields of lifecycle `id`
   * (sql/api/alpha-position-live.sql's row exactly): null when it is not open, undefined when the route
   * must run the SQL.
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
    return set === null ? null : set.search(q);
  }

  /**
   * `GET /v1/alpha/open-positions/stats`'s summary (the SQL's exactly) when the current generation's
   * set is already loaded (by a search or an open lifecycle's read), else null: the route then runs the
   * SQL. A summary does not load the set itself: after every append that load (~70 ms on the bench
   * journal) would cost a client polling only this endpoint more than its SQL (~10 ms) does.
   */
  summary(market: string | null): PositionsSummary | null {
    const loaded = this.loaded;
    if (!loaded || loaded.generation !== this.generation || !loaded.ready) return null;
    return loaded.ready.summary(market);
  }
}
