import { describe, expect, it } from 'vitest';
import { AccountTableBuilder } from '../../../server/read/accounts/account-table.ts';
import type { Row } from '../../../server/db/database.ts';

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

  it('apply replaces rows in place and appends new ones, across column kinds, growing the columns', () => {
    const base = new AccountTableBuilder();
    base.addRows(rows(1000)); // `mixed` and `hold_hours` are number columns here (hold_hours with nulls)
    const table = base.build();
    const holdBefore = table.numbers('hold_hours'); // a cached NaN view, kept up to date
    const [a, b, c] = rows(3, 5000); // `mixed` holds strings in these: the column turns plain
    const nulled = { ...rows(1, 7)[0]!, hold_hours: null, pnl: -0 };
    const valued = { ...rows(1, 8)[0]!, hold_hours: 2.5 }; // row 8 had a null
    const replaced = new Map([
      [3, a!],
      [7, nulled],
      [8, valued],
      [999, b!],
    ]);
    table.apply(replaced, [c!]);
    const expected = Array.from({ length: 1000 }, (_, i) => replaced.get(i) ?? rows(1, i)[0]!).concat([c!]);
    expect(table.length).toBe(1001);
    for (let i = 0; i < expected.length; i++) expect(json(table.row(i))).toBe(json(expected[i]));
    expect(Number.isNaN(table.numbers('hold_hours')[7]!)).toBe(true);
    expect(table.numbers('hold_hours')[8]).toBe(2.5);
    expect(table.numbers('hold_hours')).toHaveLength(1001);
    expect(table.numbers('trades')).toHaveLength(1001);
    expect(table.strings('address')[1000]).toBe('Addr05002');
    // replacing without adding: in place, the cached NaN view updated, nothing else moves
    table.apply(
      new Map([
        [8, { ...valued, hold_hours: null }],
        [9, { ...rows(1, 9)[0]!, trades: -1 }],
      ]),
      [],
    );
    expect(Number.isNaN(table.numbers('hold_hours')[8]!)).toBe(true);
    expect(table.numbers('trades')[9]).toBe(-1);
    expect(json(table.row(10))).toBe(json(expected[10]));
    expect(holdBefore).toHaveLength(1000);
    // many rows added at once: the number columns grow past their doubled size
    const more = rows(2500, 9000).map((r) => ({ ...r, mixed: 1 }));
    table.apply(new Map(), more);
    expect(table.length).toBe(3501);
    for (let k = 0; k < more.length; k += 499) expect(json(table.row(1001 + k))).toBe(json(more[k]));
    expect(table.numbers('pnl')).toHaveLength(3501);
    // the nulls of the rows before the growth are kept (row 0's hold_hours, row 8's set above)
    expect(table.row(0).hold_hours).toBeNull();
    expect(Number.isNaN(table.numbers('hold_hours')[8]!)).toBe(true);
    for (let i = 0; i < 1001; i += 97) expect(json(table.row(i)), `row ${i}`).toBe(json(i === 8 || i === 9 ? table.row(i) : expected[i]));
  });

  it('holds `_` columns (last) without serving them; a `_` column before a served one is refused', () => {
    const held = rows(3).map((r, i) => ({ ...r, _whole: 10 ** 15 + i, _micros: i }));
    const b = new AccountTableBuilder();
    b.addRows(held);
    const table = b.build();
    for (let i = 0; i < 3; i++) expect(json(table.row(i))).toBe(json(rows(1, i)[0]));
    expect([...table.numbers('_whole')]).toEqual([10 ** 15, 10 ** 15 + 1, 10 ** 15 + 2]);
    table.apply(new Map([[1, { ...held[1]!, _micros: 7 }]]), []);
    expect(table.numbers('_micros')[1]).toBe(7);
    expect(Object.keys(table.row(1))).not.toContain('_micros');
    const wrong = new AccountTableBuilder();
    wrong.addRows([{ _first: 1, address: 'A' }]);
    expect(() => wrong.build()).toThrow(/must come last/);
  });
});
