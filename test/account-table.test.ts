import { describe, expect, it } from 'vitest';
import { AccountTableBuilder } from '../server/http/account-table.ts';
import type { Row } from '../server/db/database.ts';

/** Rows with every kind of value a column can hold, and a column that turns from numbers to strings. */
function rows(n: number, offset = 0): Row[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + offset;
    return {
      address: `Addr${String(i).padStart(5, '0')}`,
      trades: i,
      pnl: i % 3 === 0 ? -0 : i * 0.1 - 7.3,
      hold_hours: i % 4 === 0 ? null : i / 7,
      markets: i % 2 ? ['SOL-PERP', 'BTC-PERP'] : [],
      // numbers in the first rows, then a string: the column becomes plain mid-load
      mixed: i < 1500 ? i : `s${i}`,
      first_at: i % 5 === 0 ? null : `2026-05-0${(i % 9) + 1}T00:00:00.000Z`,
    };
  });
}

const json = (r: unknown): string => JSON.stringify(r, (_k, v) => (Object.is(v, -0) ? '-0' : v));

describe('account table', () => {
  it('gives back every row exactly (keys, order, nulls, -0, lists), loaded in chunks', () => {
    const all = rows(3000);
    const b = new AccountTableBuilder();
    for (let i = 0; i < all.length; i += 2048) b.addRows(all.slice(i, i + 2048));
    const t = b.build();
    expect(t.length).toBe(3000);
    for (let i = 0; i < all.length; i++) expect(json(t.row(i))).toBe(json(all[i]));
    expect([...t.numbers('hold_hours').slice(0, 5)].map((v) => (Number.isNaN(v) ? null : v))).toEqual(all.slice(0, 5).map((r) => r.hold_hours));
    expect(t.strings('address')[2999]).toBe('Addr02999');
  });

  it('concat keeps the chosen rows in order and appends the new ones, across column kinds', () => {
    const base = new AccountTableBuilder();
    base.addRows(rows(2000));
    const table = base.build();
    const more = new AccountTableBuilder();
    more.addRows(rows(3, 5000)); // `mixed` is a string column here, numeric in `table`'s first rows
    const keep = Int32Array.from([1999, 0, 7, 1500]);
    const joined = table.concat(keep, more.build());
    const expected = [...keep].map((i) => table.row(i)).concat(rows(3, 5000));
    expect(joined.length).toBe(expected.length);
    for (let i = 0; i < expected.length; i++) expect(json(joined.row(i))).toBe(json(expected[i]));
    expect(json(table.concat(keep, new AccountTableBuilder().build()).row(3))).toBe(json(table.row(1500)));
  });
});
