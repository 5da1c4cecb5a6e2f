import { describe, expect, it } from 'vitest';
import type { Row } from '../../../server/db/database.ts';
import { PositionSet, type OpenPositionSearch } from '../../../server/read/open-positions/open-position-set.ts';

/**
 * `GET /v1/alpha/open-positions/search`'s in-memory search on a hand-built set, for what the simulated
 * journal lacks (its comparison with the SQL is test/read/open-positions/open-positions-index.test.ts): NULL sort values
 * (last in either order), ties broken by address then position_id descending, positions without a
 * liquidation price left out of a liq_proximity sort, and a NULL size below every minimum.
 */
const row = (address: string, id: number, size: number | null, liq: number | null, updated: string | null, source: string): Row => ({
  position_id: id,
  address,
  market: 'SOL-PERP',
  market_variant: 'v1',
  side: id % 2 ? 'long' : 'short',
  current_size_usd: size,
  updated_at: updated,
  opened_us: id * 1000,
  liq_proximity: liq,
  source,
  last_seq: id,
  fill_count: 1,
});
const set = new PositionSet([
  row('A', 1, 100, null, '2026-01-01T00:00:00.000Z', 'event'),
  row('A', 2, 100, 0.5, '2026-01-02T00:00:00.000Z', 'poll'),
  row('B', 3, null, 0.1, null, 'poll'),
  row('C', 4, 50, 0.2, '2025-12-31T00:00:00.000Z', 'poll'),
  row('0', 5, 50, 0.3, '2026-01-01T12:00:00.000Z', 'event'),
]);
const search = (q: Partial<OpenPositionSearch>) =>
  set.search({
    market_variant: null,
    market: null,
    address: null,
    side: null,
    min_size_usd: null,
    sort_by: 'size',
    order: 'desc',
    offset: 0,
    limit: 50,
    ...q,
  });
const ids = (q: Partial<OpenPositionSearch>) => search(q).data.map((r) => r.position_id);

describe('open positions in memory', () => {
  it('sorts NULLs last either way and breaks ties by address, then position_id descending', () => {
    expect(ids({})).toEqual([2, 1, 5, 4, 3]);
    expect(ids({ order: 'asc' })).toEqual([5, 4, 2, 1, 3]);
  });

  it('leaves out what a liq_proximity sort and a minimum size cannot rank', () => {
    expect(ids({ sort_by: 'liq_proximity', order: 'asc' })).toEqual([3, 4, 5, 2]);
    expect(ids({ min_size_usd: 60 })).toEqual([2, 1]);
    expect(ids({ side: 'long', offset: 1, limit: 1 })).toEqual([5]);
  });

  it('summarises every match, not the page, and serves rows without the helper columns', () => {
    const page = search({ limit: 1 });
    expect(page.total).toBe(5);
    expect(page.meta).toEqual({ oldest_updated: '2025-12-31T00:00:00.000Z', last_full_refresh: '2026-01-02T00:00:00.000Z' });
    expect(Object.keys(page.data[0]!)).toEqual(['position_id', 'address', 'market', 'market_variant', 'side', 'current_size_usd', 'updated_at']);
    expect(search({ address: 'A', side: 'long' }).meta).toEqual({ oldest_updated: '2026-01-01T00:00:00.000Z', last_full_refresh: null });
  });
});
