import { describe, expect, it } from 'vitest';
import { divRound, nearestDouble } from '../../server/db/exact-ratio.ts';
import { rng } from '../../server/bench/workloads.ts';

/**
 * server/db/exact-ratio.ts: the nearest double of a quotient of big integers. The oracle is IEEE
 * division, which is correctly rounded: for integers that are exact doubles, n / d in doubles is
 * the nearest double of the exact quotient, and so is (n / d) × 2^k of (n × 2^k) / d.
 */
describe('nearestDouble', () => {
  it('equals IEEE division wherever the operands are exact doubles, scaled by powers of two too', () => {
    const random = rng(7);
    const big = (bits: number): bigint => BigInt(Math.floor(random() * 2 ** Math.min(bits, 53))) + 1n;
    for (let k = 0; k < 20_000; k++) {
      const n = big(1 + Math.floor(random() * 53));
      const d = big(1 + Math.floor(random() * 53));
      const shift = Math.floor(random() * 120);
      const sign = random() < 0.5 ? -1n : 1n;
      const want = (Number(sign * n) / Number(d)) * 2 ** shift;
      expect(nearestDouble((sign * n) << BigInt(shift), d), `${sign * n} << ${shift} / ${d}`).toBe(want);
    }
  });

  it('rounds ties to even and keeps exact quotients exact', () => {
    expect(nearestDouble(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(nearestDouble(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(nearestDouble(-(2n ** 53n + 3n), 1n)).toBe(-(2 ** 53 + 4));
    // just above a tie: the sticky bit rounds up
    expect(nearestDouble((2n ** 53n + 1n) * 3n + 1n, 3n)).toBe(2 ** 53 + 2);
    expect(nearestDouble(3n, 2n)).toBe(1.5);
    expect(nearestDouble(0n, 5n)).toBe(0);
    expect(nearestDouble(1n, 3n)).toBe(1 / 3);
    expect(nearestDouble(2n ** 84n * 2n, 3n * 2n ** 84n)).toBe(2 / 3);
    expect(() => nearestDouble(1n, 0n)).toThrow(RangeError);
  });
});

describe('divRound', () => {
  it('rounds halves away from zero', () => {
    expect([5n, -5n, 7n, -7n, 8n, -8n, 0n, 6n].map((n) => divRound(n, n === 7n || n === -7n || n === 8n || n === -8n ? 3n : 2n))).toEqual([3n, -3n, 2n, -2n, 3n, -3n, 0n, 3n]);
    expect(divRound(-7_860_000n, 100n)).toBe(-78_600n);
  });
});
