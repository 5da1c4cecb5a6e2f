/**
 * `GET /v1/alpha/positions/{address}/{id}` and `GET /v1/alpha/positions/{address}/{id}/lifecycle` from
 * the lifecycle store's documents (server/read/lifecycles/lifecycle-store.ts) instead of DuckDB: a record array
 * becomes `GET /v1/alpha/positions/{address}/{id}`'s row, and a lifecycle's fill arrays become one page
 * of `GET /v1/alpha/positions/{address}/{id}/lifecycle`, filtered, sorted and paged exactly as
 * sql/api/alpha-position-lifecycle.sql does.
 *
 * The arrays are sql/schema/read-macros.sql `timeline_docs` (fills) and
 * sql/read/lifecycles/store/lifecycle-docs.sql (records): values as DuckDB computed them, times as epoch µs.
 * test/read/lifecycles/lifecycle-store.test.ts compares every answer with the SQL's.
 */
import type { Row } from '../../db/database.ts';
import { isoFromMicros } from '../../db/values.ts';
import { ORDER_SAFE_USD } from '../open-positions/open-positions-index.ts';

/** One fill as `timeline_docs` writes it: [seq, time µs, type, 11 amounts and prices, tx]. */
export type FillDoc = [number, number, string, ...(number | string | null)[]];

/** PositionEvent's fields after `time` and `type`, in the doc's order (positions 3-15). */
const EVENT_FIELDS = [
  'size_delta_usd',
  'position_size_usd',
  'collateral_delta_usd',
  'price',
  'entry_price',
  'pnl_delta_usd',
  'fee_usd',
  'borrowing_fee_usd',
  'funding_fee_usd',
  'liquidation_fee_usd',
  'fee_total_usd',
  'tx',
] as const;

/** The record's times, written as epoch µs by sql/read/lifecycles/store/lifecycle-docs.sql. */
const RECORD_TIMES = new Set(['opened_at', 'closed_at']);

/** The lifecycle timeline's filters and page (validated by the route). */
export interface TimelineQuery {
  type: string | null;
  include_collateral: boolean;
  sort_by: 'time' | 'size';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** A record array as it is served: `values[i]` (null when missing) under `names[i]`, times as ISO. */
type RecordBuilder = (values: readonly (number | string | null)[]) => Row;

const recordBuilders = new WeakMap<readonly string[], RecordBuilder>();

/**
 * `GET /v1/alpha/positions/{address}/{id}`'s record (without live fields), and
 * `GET /v1/alpha/accounts/{address}/history`'s rows, from the store's array and the column names: one
 * object per record, with the names in the columns' order.
 */
export function recordRow(names: readonly string[], values: readonly (number | string | null)[]): Row {
  let build = recordBuilders.get(names);
  if (!build) recordBuilders.set(names, (build = compileRecordBuilder(names)));
  return build(values);
}

/**
 * The builder of one column list: a single object literal, compiled once, which builds and
 * stringifies a page of rows about a third faster than setting the properties one by one on `{}`
 * (docs/performance.md, "Row objects as one literal"), the same text byte for byte
 * (test/read/lifecycles/record-row.test.ts).
 * The names are the store's SQL columns (the store's manifest must list exactly the SQL's), never
 * input: as server/ingest/columns.ts's encoders, anything but a plain identifier is refused.
 */
function compileRecordBuilder(names: readonly string[]): RecordBuilder {
  const fields = names.map((name, i) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name) || name === '__proto__') throw new Error(`record column name ${JSON.stringify(name)}`);
    const v = `v[${i}]`;
    return `${name}: ${RECORD_TIMES.has(name) ? `typeof ${v} === 'number' ? iso(${v}) : (${v} ?? null)` : `${v} ?? null`}`;
  });
  return new Function('iso', `return (v) => ({ ${fields.join(', ')} });`)(isoFromMicros) as RecordBuilder;
}

/** One PositionEvent row from a fill doc. */
function eventRow(doc: FillDoc): Row {
  const row: Row = { time: isoFromMicros(doc[1]), type: doc[2] };
  EVENT_FIELDS.forEach((name, i) => {
    row[name] = doc[i + 3] ?? null;
  });
  return row;
}

/**
 * One page of the timeline and the match count, or null when its order cannot be reproduced on
 * doubles (the SQL sorts by the exact |size_delta_usd|: an amount of ORDER_SAFE_USD or more is left
 * to it). `fills` is every fill of the
 * lifecycle (any order).
 */
export function timelinePage(fills: readonly FillDoc[], q: TimelineQuery): { data: Row[]; total: number } | null {
  const kept = fills.filter((f) => (q.type === null || f[2] === q.type) && (q.include_collateral || f[3] !== 0 || f[2] === 'liquidation'));
  if (q.sort_by === 'size' && kept.some((f) => Math.abs(f[3] as number) >= ORDER_SAFE_USD)) return null;
  // ascending by the key, then seq; desc is exactly the reverse (the SQL negates both keys)
  const key = q.sort_by === 'size' ? (f: FillDoc) => Math.abs(f[3] as number) : (f: FillDoc) => f[1];
  kept.sort((a, b) => (key(a) !== key(b) ? key(a) - key(b) : a[0] - b[0]));
  if (q.order === 'desc') kept.reverse();
  return { data: kept.slice(q.offset, q.offset + q.limit).map(eventRow), total: kept.length };
}
