import { describe, expect, it } from 'vitest';
import { plainRowsOf } from '../../server/db/chunk-rows.ts';
import { plainRow } from '../../server/db/values.ts';
import { memoryDuckDB } from '../helpers/memory-duckdb.ts';

/**
 * server/db/chunk-rows.ts converts results a column at a time; every value must be what the
 * value-by-value conversion (`getRowObjects()` then `plainRow`, i.e. `toPlain`) makes of it: each
 * type our SQL returns, NULLs at every bit position of the validity words, results over several
 * chunks, strings kept inline (≤ 12 bytes, UTF-8 too) and behind a pointer, and the edges
 * (non-finite doubles, ±2^53 integers, timestamps before 1970 with sub-ms parts, infinite
 * timestamps).
 */
const db = memoryDuckDB();

/** Both conversions of `sql`: [value by value, column by column]. */
async function both(sql: string): Promise<[unknown, unknown]> {
  const old = (await db().runAndReadAll(sql)).getRowObjects().map(plainRow);
  return [old, await plainRowsOf(await db().run(sql))];
}

describe('plain rows a column at a time', () => {
  it('equal the value-by-value conversion for every type, over several chunks, with NULLs at every bit', async () => {
    // 5,000 rows: three chunks; i % 7 = 3 makes NULLs fall on every bit of the 64-bit validity words
    const sql = `
      SELECT i,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i * 1.5 END::DOUBLE AS dbl,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i / 3 END::FLOAT AS flt,
        CASE WHEN i % 7 = 3 THEN NULL ELSE (i % 200) - 100 END::TINYINT AS tiny,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i - 2500 END::SMALLINT AS small,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i * 1000 END::INTEGER AS int32,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i * 1000000000 END::BIGINT AS int64,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i % 200 END::UTINYINT AS utiny,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i END::UINTEGER AS uint32,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i * 7 END::UBIGINT AS uint64,
        CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 1234567.000001)::DECIMAL(38, 6) END AS dec38,
        CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 1.25)::DECIMAL(18, 2) END AS dec18,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i::HUGEINT * 1000 END AS huge,
        CASE WHEN i % 7 = 3 THEN NULL ELSE i % 2 = 0 END AS flag,
        CASE WHEN i % 7 = 3 THEN NULL ELSE 'addr-' || i || repeat('x', i % 20) END AS text,
        CASE WHEN i % 5 = 1 THEN NULL ELSE repeat('é', i % 9) || 'ü' END AS utf8,
        CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMP '1969-12-31 23:59:59.999' + to_microseconds(i * 1234567) END AS ts,
        CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMPTZ '2025-03-12 00:00:00+00' + i * INTERVAL 1 MINUTE END AS tstz,
        CASE WHEN i % 7 = 3 THEN NULL ELSE DATE '1969-06-01' + i::INTEGER END AS day,
        CASE WHEN i % 7 = 3 THEN NULL ELSE [i, i + 1] END AS list,
        CASE WHEN i % 7 = 3 THEN NULL ELSE {'a': i, 'b': 'x' || i} END AS struct
      FROM range(5000) t(i)`;
    const [old, rows] = await both(sql);
    expect((rows as unknown[]).length).toBe(5000);
    expect(rows).toStrictEqual(old);
    // the keys in column order, as getRowObjects gives them
    expect(Object.keys((rows as Record<string, unknown>[])[0]!)).toEqual(Object.keys((old as Record<string, unknown>[])[0]!));
  });

  it('equal it at the edges: non-finite doubles, ±2^53, sub-millisecond times before 1970', async () => {
    const [old, rows] = await both(`
      SELECT * FROM (VALUES
        ('nan'::DOUBLE, 9007199254740991::BIGINT, -9007199254740991::BIGINT, TIMESTAMP '1969-12-31 23:59:59.9995', 'short'),
        ('inf'::DOUBLE, 0::BIGINT, 1::BIGINT, TIMESTAMP '1970-01-01 00:00:00.0005', 'a string longer than twelve bytes'),
        ('-inf'::DOUBLE, -1::BIGINT, NULL::BIGINT, TIMESTAMP '1900-01-01 00:00:00.123456', ''),
        (-0.0::DOUBLE, 42::BIGINT, 7::BIGINT, TIMESTAMP '2262-04-11 23:47:16.854775', NULL)
      ) t(d, a, b, ts, s)`);
    expect(rows).toStrictEqual(old);
    expect((rows as Record<string, unknown>[]).map((r) => r.d)).toStrictEqual([null, null, null, -0]);
  });

  it('throw as the value-by-value conversion does past 2^53 and on infinite timestamps', async () => {
    for (const sql of ['SELECT 9007199254740993::BIGINT AS x', "SELECT 'infinity'::TIMESTAMP AS x", 'SELECT 18446744073709551615::UBIGINT AS x']) {
      const oldError = await db()
        .runAndReadAll(sql)
        .then((r) => r.getRowObjects().map(plainRow))
        .then(
          () => null,
          (e: Error) => e.constructor,
        );
      const newError = await db()
        .run(sql)
        .then(plainRowsOf)
        .then(
          () => null,
          (e: Error) => e.constructor,
        );
      expect(oldError).not.toBeNull();
      expect(newError).toBe(oldError);
    }
  });

  it('return no rows for an empty result', async () => {
    expect(await plainRowsOf(await db().run('SELECT 1 AS x WHERE false'))).toEqual([]);
  });
});
