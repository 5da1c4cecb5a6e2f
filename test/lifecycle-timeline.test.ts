/**
 * Endpoint 15 writes its records with `recordJson` instead of serializing `recordRow`'s objects
 * (server/http/lifecycle-timeline.ts): the text must be exactly JSON.stringify of the object, for
 * every kind of value a record array can hold (and a few it cannot, which must still agree).
 */
import { describe, expect, it } from 'vitest';
import { recordJson, recordRow } from '../server/http/lifecycle-timeline.ts';

type Value = number | string | null;

const NAMES = ['protocol', 'position_id', 'opened_at', 'status', 'closed_at', 'net_pnl_usd', 'close_tx'];

describe('recordJson', () => {
  const cases: [string, readonly string[], readonly Value[]][] = [
    ['a closed record', NAMES, ['alpha', 2098371, 1771678125000000, 'closed', 1771810165123456, -173.259293, '4YTukyRn']],
    ['NULL times and amounts', NAMES, ['alpha', 1, null, 'open', null, null, null]],
    ['fewer values than names (missing as null)', NAMES, ['alpha', 7]],
    ['a time given as text stays text', NAMES, ['alpha', 1, '2026-01-01T00:00:00.000Z', 'x', 0, 0, '']],
    ['strings JSON escapes', NAMES, ['quote " back \\ slash', 2, 1, 'new\nline\ttab\u0001', 2, 3, 'é ü 中 😀 \ud800']],
    ['numbers at their edges', NAMES, [1e21, -0, 0, 'x', 2 ** 53, 5e-7, 2 ** 53 + 2]],
    ['values JSON has no form for', NAMES, [Infinity, Number.NaN, null, 'x', null, -Infinity, Number.NaN]],
    ['times before 1970 and with sub-ms digits', NAMES, [null, 1, -1_500, 'x', 999, 1_000_001, null]],
    ['names JSON escapes', ['a"b', 'c\\d', 'opened_at'], [1, 2, 3]],
    ['no columns', [], []],
  ];
  for (const [what, names, values] of cases) {
    it(what, () => {
      expect(recordJson(names, values)).toBe(JSON.stringify(recordRow(names, values)));
    });
  }

  it('agrees on random records, the column list reused (its form is kept per list)', () => {
    let seed = 42;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const pickValue = (): Value => {
      const r = random();
      if (r < 0.15) return null;
      if (r < 0.5) return (random() - 0.5) * 10 ** Math.floor(random() * 30 - 10);
      if (r < 0.7) return Math.floor(random() * 2e15);
      return String.fromCharCode(...Array.from({ length: Math.floor(random() * 12) }, () => Math.floor(random() * 0x3000)));
    };
    // times within Date's range (both sides throw beyond it)
    const pickTime = (): Value => (random() < 0.2 ? null : Math.floor((random() - 0.3) * 4e15));
    for (let i = 0; i < 2_000; i++) {
      const values = NAMES.map((name) => (name.endsWith('_at') ? pickTime() : pickValue()));
      expect(recordJson(NAMES, values)).toBe(JSON.stringify(recordRow(NAMES, values)));
    }
  });
});
