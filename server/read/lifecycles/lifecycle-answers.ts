/**
 * `GET /v1/alpha/positions/{address}/{id}` and `GET /v1/alpha/positions/{address}/{id}/lifecycle`
 * answered without reading `lifecycles` or `fills`, from the lifecycle store (closed lifecycles,
 * server/read/lifecycles/lifecycle-store.ts) and the open-position set (open lifecycles,
 * server/read/open-positions/open-positions-index.ts). Each function returns undefined when it cannot answer exactly
 * (the lifecycle closed after the store's mark, an unknown id, a set that cannot be loaded, fills that
 * do not add up to the record's fill_count); the route then runs its SQL.
 */
import type { Row } from '../../db/database.ts';
import type { Service } from '../../service.ts';
import type { LifecycleStore } from './lifecycle-store.ts';
import { timelinePage, type FillDoc, type TimelineQuery } from './lifecycle-timeline.ts';
import type { OpenPositionsIndex } from '../open-positions/open-positions-index.ts';

/** An answer, or a 404 (`null`: no lifecycle of this address and the set's protocol has this id). */
export type Found<T> = T | null;

/**
 * `GET /v1/alpha/positions/{address}/{id}`'s row (record and live fields) of lifecycle `id` of
 * `address`; `noLive` are the live fields of a lifecycle that is not open. An open lifecycle's record
 * is read from `open_lifecycles` (sql/read/lifecycles/alpha-open-record.sql), its live fields come from the set.
 */
export async function positionFromStoreOrSet(service: Service, store: LifecycleStore | null, open: OpenPositionsIndex, id: number, address: string, noLive: Row): Promise<Found<Row> | undefined> {
  const closed = await store?.view().closed(id);
  if (closed) return closed.record.address === address ? { ...closed.record, ...noLive } : null;
  const lifecycle = await open.lifecycle(id);
  if (!lifecycle) return undefined;
  if (lifecycle.address !== address) return null;
  const record = await service.db.queryOne('read/lifecycles/alpha-open-record', { id });
  return record ? { ...record, ...lifecycle.live } : undefined;
}

/**
 * `GET /v1/alpha/positions/{address}/{id}/lifecycle`'s page and match count for lifecycle `id` of
 * `address`. An open lifecycle's fills are the store's prefix (at or before its mark) and the fills
 * after the mark (one query over the newest fills, bounded by the lifecycle's last seq).
 */
export async function timelineFromStoreOrSet(
  service: Service,
  store: LifecycleStore | null,
  open: OpenPositionsIndex,
  id: number,
  address: string,
  q: TimelineQuery,
): Promise<Found<{ data: Row[]; total: number }> | undefined> {
  const view = store?.view();
  if (!view || view.mark === 0) return undefined;
  const closed = await view.closed(id);
  if (closed) {
    if (closed.record.address !== address) return null;
    return timelinePage(closed.fills, q) ?? undefined;
  }
  const lifecycle = await open.lifecycle(id);
  if (!lifecycle) return undefined;
  if (lifecycle.address !== address) return null;
  const tail =
    lifecycle.lastSeq <= view.mark
      ? []
      : await service.db.query('read/lifecycles/alpha-position-tail', {
          protocol: open.protocol,
          id,
          after: view.mark,
          last_seq: lifecycle.lastSeq,
        });
  const fills: FillDoc[] = [...(view.prefixes.get(id) ?? []), ...tail.map((r) => JSON.parse(r.doc as string) as FillDoc)];
  // a prefix read after the lifecycle closed, or one missing for a lifecycle closed meanwhile: the SQL answers
  if (fills.length !== lifecycle.fillCount) return undefined;
  return timelinePage(fills, q) ?? undefined;
}
