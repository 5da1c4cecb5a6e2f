/** The envelopes around the records of a 200 body: one record, a list, a page, a history. */
import * as v from 'valibot';
import { COARSE_INTERVALS, FINE_INTERVALS } from '../params.ts';
import { described, timestamp } from './scalars.ts';
import { Pagination } from './pagination.ts';
import { RESPONSE_DEFINITIONS } from './definitions.ts';

/** `{ data: T }` */
export function dataOf<T extends v.GenericSchema>(item: T) {
  // a named record stays a `$ref` (a description would inline it); its fields carry the descriptions
  const named = (Object.values(RESPONSE_DEFINITIONS) as v.GenericSchema[]).includes(item);
  return v.strictObject({ data: named ? item : described(item, 'The record.') });
}

/** `{ data: T[] }` */
export function listOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({ data: described(v.array(item), 'The records.') });
}

/** `{ data: T[], pagination }` (offset-paged). */
export function pagedListOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({ data: described(v.array(item), 'This page of records.'), pagination: Pagination });
}

/** `{ data: T[], next_cursor }` (cursor-paged). */
export function cursorListOf<T extends v.GenericSchema>(item: T) {
  return v.strictObject({
    data: described(v.array(item), 'This page of records, newest first.'),
    next_cursor: described(v.nullable(v.string()), "Opaque token: pass as `cursor` for the next, older page; null on the last page or at the plan's lookback."),
  });
}

/** `{ interval, from, to, data: Bucket[] }` (bucketed history, oldest first). */
export function historyOf<T extends v.GenericSchema>(bucket: T, intervals: readonly string[] = FINE_INTERVALS) {
  return v.strictObject({
    interval: described(v.picklist(intervals), 'Bucket size applied.'),
    from: v.pipe(timestamp, v.description('Effective window start (default or plan-clamped).')),
    to: v.pipe(timestamp, v.description('Effective window end (exclusive).')),
    data: described(v.array(bucket), 'Buckets, oldest first.'),
  });
}

/** Coarse-interval history envelope. */
export function coarseHistoryOf<T extends v.GenericSchema>(bucket: T) {
  return historyOf(bucket, COARSE_INTERVALS);
}
