/**
 * `GET /v1/alpha/accounts/{address}/history`'s in-memory order (server/read/lifecycles/account-history.ts
 * `pageOrder`): the page a selection of the page's last value finds equals the page of a full sort, for
 * random values with ties, NULLs (NaN), -0 and +0, in both orders and at every offset.
 */
import { describe, expect, it } from 'vitest';
import { pageOrder } from '../../../server/read/lifecycles/account-history.ts';
import { K, KEY_WIDTH, setKeyRow } from '../../../server/read/lifecycles/lifecycle-accounts.ts';

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The SQL's order by a full sort: value (NULLs last), then id descending. */
function fullSort(values: Float64Array, ids: Float64Array, order: 'asc' | 'desc'): number[] {
  const dir = order === 'asc' ? 1 : -1;
  return Array.from(values.keys()).sort((a, b) => {
    const [x, y] = [values[a]!, values[b]!];
    if (Number.isNaN(x) !== Number.isNaN(y)) return Number.isNaN(x) ? 1 : -1;
    if (!Number.isNaN(x) && x !== y) return dir * (x - y);
    return ids[b]! - ids[a]!;
  });
}

describe('pageOrder', () => {
  it("gives the full sort's page for every size, order and offset", () => {
    const next = random(3);
    const pick = [-0, 0, 1.5, -2, NaN, 1e9];
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(next() * 400);
      const values = Float64Array.from({ length: n }, () => (next() < 0.3 ? pick[Math.floor(next() * pick.length)]! : Math.round(next() * 50) - 25));
      const ids = Float64Array.from({ length: n }, (_, i) => i * 7 + Math.floor(next() * 7));
      for (const order of ['asc', 'desc'] as const) {
        const sorted = fullSort(values, ids, order);
        const offset = Math.floor(next() * (n + 5));
        const limit = 1 + Math.floor(next() * 100);
        expect(pageOrder(values, ids, { order, offset, limit }), `n ${n} ${order} ${offset}+${limit}`).toEqual(sorted.slice(offset, offset + limit));
      }
    }
  });

  it('keeps a NULL size as NaN in a key row, which the order puts last', () => {
    const row = new Float64Array(KEY_WIDTH);
    setKeyRow(row, 7, 1, 2, null, -3.5, 10, 4, 128);
    expect([...row]).toEqual([7, 1, 2, NaN, -3.5, 10, 4, 128]);
    expect(row[K.size]).toBeNaN();
    const values = Float64Array.of(row[K.size]!, 5);
    expect(pageOrder(values, Float64Array.of(7, 8), { order: 'desc', offset: 0, limit: 2 })).toEqual([1, 0]);
  });
});
