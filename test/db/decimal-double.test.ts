import { describe, expect, it } from 'vitest';
import { hugeintToDouble, unscaledOf, wideDecimalToDouble } from '../../server/db/decimal-double.ts';
import { rng } from '../../server/bench/workloads.ts';
import { memoryDuckDB } from '../helpers/memory-duckdb.ts';

/**
 * server/db/decimal-double.ts reproduces DuckDB's DECIMAL(38, s) → DOUBLE cast bit for bit (it is
 * not the nearest double): compared here with DuckDB itself on values around every boundary of its
 * algorithm (±2^53, the 64-bit halves, an upper half of -1) and on random ones of every length.
 */
const db = memoryDuckDB();

/** The decimal text of an unscaled value at `scale` (`-123.4500`). */
function textOf(unscaled: bigint, scale: number): string {
  const digits = (unscaled < 0n ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const sign = unscaled < 0n ? '-' : '';
  return scale === 0 ? sign + digits : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** DuckDB's DOUBLE of each unscaled value at `scale` (the decimal reaches DuckDB exactly, as text). */
async function duckdb(unscaled: bigint[], scale: number): Promise<number[]> {
  const values = unscaled.map((u) => `('${textOf(u, scale)}')`).join(', ');
  const rows = await db().runAndReadAll(`SELECT CAST(v AS DECIMAL(38, ${scale}))::DOUBLE AS d FROM (VALUES ${values}) t(v)`);
  return rows.getRowObjects().map((r) => r.d as number);
}

/** Values around each boundary, both signs. */
function boundaries(): bigint[] {
  const out: bigint[] = [];
  for (const base of [2n ** 53n, 2n ** 63n, 2n ** 64n, 2n ** 65n, 10n ** 20n, 10n ** 37n]) {
    for (let d = -3n; d <= 3n; d++) out.push(base + d, -(base + d));
  }
  out.push(0n, 1n, -1n, 10n ** 38n - 1n, -(10n ** 38n - 1n));
  return out;
}

/** Random unscaled values of 1 to 38 digits, both signs. */
function randoms(count: number, seed: number): bigint[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => {
    const digits = 1 + Math.floor(r() * 38);
    let s = String(1 + Math.floor(r() * 9));
    while (s.length < digits) s += String(Math.floor(r() * 10));
    return r() < 0.5 ? -BigInt(s) : BigInt(s);
  });
}

describe('DuckDB DECIMAL(38, s) → DOUBLE', () => {
  it.each([20, 6, 0])("scale %i: boundaries and 3,000 random values equal DuckDB's cast", async (scale) => {
    const values = [...boundaries(), ...randoms(3000, 7 + scale)];
    const want = await duckdb(values, scale);
    const got = values.map((v) => wideDecimalToDouble(v, scale));
    const wrong = values.filter((_, i) => !Object.is(got[i], want[i]));
    expect(wrong, `first: ${wrong[0]}`).toEqual([]);
  });

  it('is not simply the nearest double (so a plain Number() conversion would be wrong)', async () => {
    const values = randoms(3000, 99);
    const want = await duckdb(values, 20);
    const nearest = values.map((v) => Number(v) / 1e20);
    expect(nearest.some((x, i) => !Object.is(x, want[i]))).toBe(true);
  });

  it('hugeintToDouble takes the upper half of -1 apart', () => {
    expect(hugeintToDouble(-1n)).toBe(-1);
    expect(hugeintToDouble(-(2n ** 64n))).toBe(-(2 ** 64));
    expect(hugeintToDouble(2n ** 64n + 5n)).toBe(2 ** 64);
  });

  it("reads DuckDB's printed decimals", () => {
    expect(unscaledOf('-12.34', 4)).toBe(-123400n);
    expect(unscaledOf('0.00000000000000000001', 20)).toBe(1n);
    expect(unscaledOf('7', 2)).toBe(700n);
    expect(unscaledOf(textOf(-(10n ** 37n) - 5n, 20), 20)).toBe(-(10n ** 37n) - 5n);
    expect(() => unscaledOf('1.234', 2)).toThrow();
    expect(() => unscaledOf('1e5', 2)).toThrow();
  });
});
