/**
 * The compiled record builder (recordRow, server/read/lifecycles/lifecycle-timeline.ts) serves exactly what
 * setting each column in turn served before it, as JSON text: names in column order, missing
 * values as null, times (epoch µs) as ISO only when they are numbers, every other value as it is.
 */
import { describe, expect, it } from 'vitest';
import { isoFromMicros } from '../../../server/db/values.ts';
import { recordRow } from '../../../server/read/lifecycles/lifecycle-timeline.ts';

const COLUMNS = ['protocol', 'position_id', 'market', 'opened_at', 'closed_at', 'entry_price', 'net_pnl_usd', 'open_tx'];

/** The builder as it was: one property at a time. */
function reference(names: readonly string[], values: readonly (number | string | null)[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  names.forEach((name, i) => {
    const v = values[i] ?? null;
    row[name] = (name === 'opened_at' || name === 'closed_at') && typeof v === 'number' ? isoFromMicros(v) : v;
  });
  return row;
}

const same = (names: readonly string[], records: (number | string | null)[][]) =>
  expect(JSON.stringify(records.map((r) => recordRow(names, r)))).toBe(JSON.stringify(records.map((r) => reference(names, r))));

describe('record rows', () => {
  it('serve what one property at a time served, on hand-picked values', () => {
    same(COLUMNS, [
      ['alpha', 1, 'SOL-PERP', 1_748_736_000_123_456, 1_748_822_400_000_000, 100.5, -0, 'tx"with\\quotes'],
      ['alpha', 2, 'BTC-PERP', -1_000_001, null, Number.NaN, Number.POSITIVE_INFINITY, 'ünïcødé \u2028 \u0001'],
      ['alpha', 3, null, '2026-01-01', 999, 1e21, 5e-7, null], // a time that is not a number stays as it is
      ['alpha', 4, 'ETH-PERP'], // values missing at the end are null
      [],
    ]);
  });

  it('serve what one property at a time served, on random records', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const value = (): number | string | null => {
      const r = rand();
      if (r < 0.1) return null;
      if (r < 0.4) return (rand() - 0.5) * 10 ** Math.floor(rand() * 30 - 10);
      if (r < 0.6) return Math.round((rand() - 0.3) * 2e15);
      return String.fromCharCode(...Array.from({ length: Math.floor(rand() * 12) }, () => Math.floor(rand() * 0x2100)));
    };
    same(
      COLUMNS,
      Array.from({ length: 300 }, () => COLUMNS.map(value)),
    );
  });

  it('refuse column names that are not plain identifiers (they would be written into code)', () => {
    for (const name of ['Market Name', '__proto__', '0', 'a: 1, b']) expect(() => recordRow(['protocol', name], ['alpha', 1])).toThrow(/record column name/);
  });
});
