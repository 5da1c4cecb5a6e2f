/**
 * What a request reads from the lifecycle store (server/read/lifecycles/lifecycle-store.ts): one immutable view
 * per mark, over that mark's segments and open-lifecycle prefixes.
 */
import type { Row } from '../../db/database.ts';
import type { AccountRun } from './lifecycle-accounts.ts';
import type { Segment } from './lifecycle-segment.ts';
import { recordRow, type FillDoc } from './lifecycle-timeline.ts';

/** A closed lifecycle as the store holds it. */
export interface ClosedLifecycle {
  /** `GET /v1/alpha/positions/{address}/{id}`'s record, sql/api/alpha-position.sql's row exactly */
  record: Row;
  /** every fill */
  fills: FillDoc[];
}

/** What one request reads: replaced whole when the mark moves, so a request never mixes two marks. */
export interface StoreView {
  /** 0: the store holds nothing */
  readonly mark: number;
  /** closed lifecycle `id` if the store holds it (closed at or before the mark) */
  closed(id: number): Promise<ClosedLifecycle | undefined>;
  /** the fills at or before the mark of lifecycle `id` if it was open when they were read */
  readonly prefixes: ReadonlyMap<number, FillDoc[]>;
  /** `GET /v1/alpha/positions/{address}/{id}`'s record columns: the order of a record document's values */
  readonly columns: readonly string[];
  /** the closed lifecycles of `address` the store holds (`GET /v1/alpha/accounts/{address}/history`), one run per segment that has any */
  accounts(address: string): Promise<AccountRun[]>;
}

/** The view of a store that holds nothing (yet). */
export const EMPTY_VIEW: StoreView = { mark: 0, closed: async () => undefined, prefixes: new Map(), columns: [], accounts: async () => [] };

/** The view of `segments` at `mark`, with the open lifecycles' fill prefixes read at it. */
export function viewOf(segments: readonly Segment[], columns: string[], mark: number, prefixes: ReadonlyMap<number, FillDoc[]>): StoreView {
  return {
    mark,
    prefixes,
    columns,
    async accounts(address) {
      const runs = await Promise.all(segments.map((segment) => segment.account(address)));
      return runs.filter((run) => run !== undefined);
    },
    async closed(id) {
      for (const segment of segments) {
        const entry = await segment.get(id);
        if (entry) return { record: recordRow(columns, entry.record), fills: entry.fills };
      }
      return undefined;
    },
  };
}
