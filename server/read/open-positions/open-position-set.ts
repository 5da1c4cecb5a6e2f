/**
 * One generation of `GET /v1/alpha/open-positions/search`'s open positions
 * (server/read/open-positions/open-positions-index.ts), with the columns a search filters, sorts and summarises on
 * held as plain arrays beside the rows. A search walks one sort order (an index array, built on first
 * use) and reads only those columns: on the 3,404 positions of the bench journal, a search over the row
 * objects themselves (wide rows from DuckDB) cost ~1.2 ms of CPU, its first sort per order a few more.
 */
import type { Row } from '../../db/database.ts';
import { servedUsd } from '../../db/decimal-double.ts';
import { compareNullsLast } from '../../lib/nulls-last.ts';

/** `sort_by` of `GET /v1/alpha/open-positions/search` → the loaded column it sorts by. */
export const SORT_COLUMN = {
  size: 'current_size_usd',
  pnl: 'unrealized_pnl_usd',
  collateral: 'current_collateral_usd',
  leverage: 'leverage',
  opened_at: 'opened_us',
  liq_proximity: 'liq_proximity',
} as const;

export type OpenPositionSort = keyof typeof SORT_COLUMN;

/** Columns loaded for searching (and for `GET /v1/alpha/positions/{address}/{id}/lifecycle`), not served by the search. */
const HELPERS: ReadonlySet<string> = new Set(['opened_us', 'liq_proximity', 'source', 'last_seq', 'fill_count']);

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

/** `GET /v1/alpha/open-positions/stats`'s PositionsSummary row, in sql/api/alpha-open-positions-stats.sql's column order. */
export interface PositionsSummary {
  market: string | null;
  snapshot_ts: string | null;
  total_positions: number;
  long_positions: number;
  short_positions: number;
  long_notional_usd: number;
  short_notional_usd: number;
  long_upnl_usd: number;
  short_upnl_usd: number;
  avg_leverage: number;
}

/**
 * The micro-USD integer of a served 6-decimal amount: the served double is the nearest one to it
 * (DuckDB's cast of a 6-decimal value below 2^53 micro-USD), and below the index's ORDER_SAFE_USD
 * no two such amounts share a double, so rounding `x`·10^6 finds it. Undefined if that check fails.
 */
function microOf(x: number): bigint | undefined {
  const m = Math.round(x * 1e6);
  return m / 1e6 === x ? BigInt(m) : undefined;
}

/** A numeric column with NaN for NULL. */
const numbers = (rows: readonly Row[], key: string): Float64Array => Float64Array.from(rows, (r) => (typeof r[key] === 'number' ? (r[key] as number) : NaN));
const strings = (rows: readonly Row[], key: string): (string | null)[] => rows.map((r) => (r[key] as string | null) ?? null);

/** See the file comment. */
export class PositionSet {
  private readonly orders = new Map<string, Int32Array>();
  private byId: Map<number, Row> | undefined;
  private readonly served: string[];
  private readonly market: (string | null)[];
  private readonly variant: (string | null)[];
  private readonly address: (string | null)[];
  private readonly side: (string | null)[];
  private readonly size: Float64Array;
  private readonly liqProximity: Float64Array;
  /** `updated_at` as epoch ms (NaN: none), and whether the row's source is a poll */
  private readonly updated: Float64Array;
  private readonly poll: Uint8Array;
  private readonly positionId: Float64Array;
  private byPositionId: Int32Array | undefined;
  private leverage: Float64Array | undefined;
  private pnl: Float64Array | undefined;

  constructor(private readonly rows: Row[]) {
    this.served = rows.length ? Object.keys(rows[0]!).filter((k) => !HELPERS.has(k)) : [];
    this.market = strings(rows, 'market');
    this.variant = strings(rows, 'market_variant');
    this.address = strings(rows, 'address');
    this.side = strings(rows, 'side');
    this.size = numbers(rows, 'current_size_usd');
    this.liqProximity = numbers(rows, 'liq_proximity');
    this.updated = Float64Array.from(rows, (r) => (typeof r.updated_at === 'string' ? Date.parse(r.updated_at) : NaN));
    this.poll = Uint8Array.from(rows, (r) => (r.source === 'poll' ? 1 : 0));
    this.positionId = numbers(rows, 'position_id');
  }

  /** The open position `id`, if it is open. */
  get(id: number): Row | undefined {
    this.byId ??= new Map(this.rows.map((r) => [r.position_id as number, r]));
    return this.byId.get(id);
  }

  /** The search's page: the SQL's filters, order and meta (see server/read/open-positions/open-positions-index.ts). */
  search(q: OpenPositionSearch): OpenPositionPage {
    const order = this.sorted(q.sort_by, q.order);
    const min = q.min_size_usd;
    let total = 0;
    let oldest = -1;
    let lastPoll = -1;
    const data: Row[] = [];
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (
        (q.market_variant !== null && this.variant[i] !== q.market_variant) ||
        (q.market !== null && this.market[i] !== q.market) ||
        (q.address !== null && this.address[i] !== q.address) ||
        (q.side !== null && this.side[i] !== q.side) ||
        // a NULL size is below every minimum; NaN >= min is false
        (min !== null && !(this.size[i]! >= min)) ||
        (q.sort_by === 'liq_proximity' && Number.isNaN(this.liqProximity[i]!))
      )
        continue;
      if (total >= q.offset && data.length < q.limit) data.push(this.servedRow(i));
      total += 1;
      const at = this.updated[i]!;
      if (Number.isNaN(at)) continue;
      if (oldest < 0 || at < this.updated[oldest]!) oldest = i;
      if (this.poll[i] && (lastPoll < 0 || at > this.updated[lastPoll]!)) lastPoll = i;
    }
    const iso = (i: number): string | null => (i < 0 ? null : (this.rows[i]!.updated_at as string));
    return { data, total, meta: { oldest_updated: iso(oldest), last_full_refresh: iso(lastPoll) } };
  }

  /**
   * `GET /v1/alpha/open-positions/stats`'s summary of the rows of `market` (every row when null), exactly as
   * sql/api/alpha-open-positions-stats.sql answers it: counts by side; notional and uPnL as exact
   * sums of the rows' 6-decimal amounts, cast to DOUBLE as DuckDB casts a DECIMAL(38,6); the mean
   * leverage summed in position_id order, as the SQL's `avg(leverage ORDER BY position_id)` does
   * (a plain running sum, then one division); the newest `updated_at`. Null when an amount is not
   * one the set can hold exactly (the route then runs the SQL).
   */
  summary(market: string | null): PositionsSummary | null {
    const leverage = (this.leverage ??= numbers(this.rows, 'leverage'));
    const pnl = (this.pnl ??= numbers(this.rows, 'unrealized_pnl_usd'));
    this.byPositionId ??= Int32Array.from(this.rows, (_, i) => i).sort((a, b) => this.positionId[a]! - this.positionId[b]!);
    let total = 0;
    let longs = 0;
    let shorts = 0;
    const notional = { long: 0n, short: 0n };
    const upnl = { long: 0n, short: 0n };
    let newest = -1;
    let leverageSum = 0;
    let leverageCount = 0;
    for (const i of this.byPositionId) {
      if (market !== null && this.market[i] !== market) continue;
      total += 1;
      const side = this.side[i] === 'long' ? 'long' : this.side[i] === 'short' ? 'short' : null;
      if (side !== null) {
        if (side === 'long') longs += 1;
        else shorts += 1;
        // a NULL amount (none today: the columns are NOT NULL) counts as nothing, as SQL's sum skips it
        const size = Number.isNaN(this.size[i]!) ? 0n : microOf(this.size[i]!);
        const gain = Number.isNaN(pnl[i]!) ? 0n : microOf(pnl[i]!);
        if (size === undefined || gain === undefined) return null;
        notional[side] += size;
        upnl[side] += gain;
      }
      if (!Number.isNaN(leverage[i]!)) {
        leverageSum += leverage[i]!;
        leverageCount += 1;
      }
      const at = this.updated[i]!;
      if (!Number.isNaN(at) && (newest < 0 || at > this.updated[newest]!)) newest = i;
    }
    return {
      market,
      snapshot_ts: newest < 0 ? null : (this.rows[newest]!.updated_at as string),
      total_positions: total,
      long_positions: longs,
      short_positions: shorts,
      long_notional_usd: servedUsd(notional.long),
      short_notional_usd: servedUsd(notional.short),
      long_upnl_usd: servedUsd(upnl.long),
      short_upnl_usd: servedUsd(upnl.short),
      avg_leverage: leverageCount ? leverageSum / leverageCount : 0,
    };
  }

  /** Row i without the helper columns (its keys added in one order: one shape for every row). */
  private servedRow(i: number): Row {
    const from = this.rows[i]!;
    const row: Row = {};
    for (const key of this.served) row[key] = from[key] ?? null;
    return row;
  }

  /** Row indexes in the SQL's order for `sortBy` / `order`: the value (NULLs last), then address asc, then position_id desc. */
  private sorted(sortBy: OpenPositionSort, order: 'asc' | 'desc'): Int32Array {
    const name = `${sortBy} ${order}`;
    let sorted = this.orders.get(name);
    if (sorted) return sorted;
    const value = numbers(this.rows, SORT_COLUMN[sortBy]);
    const dir = order === 'asc' ? 1 : -1;
    const address = this.address;
    const id = this.positionId;
    sorted = Int32Array.from(this.rows, (_, i) => i).sort((a, b) => {
      const byValue = compareNullsLast(value[a]!, value[b]!, dir);
      if (byValue !== 0) return byValue;
      const p = address[a]!;
      const s = address[b]!;
      if (p !== s) return p < s ? -1 : 1;
      return id[b]! - id[a]!;
    });
    this.orders.set(name, sorted);
    return sorted;
  }
}
