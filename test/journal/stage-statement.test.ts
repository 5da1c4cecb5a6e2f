import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toColumns, type ColumnBlock } from '../../server/ingest/columns.ts';
import { resetStaging, stageBlock, STAGING, type StageVia, type StagingTable } from '../../server/journal/stage.ts';
import type { Service } from '../../server/service.ts';
import { at, fill, marketSnapshot, positionSnapshot, tempService } from '../helpers/fixtures.ts';

let s: { service: Service; cleanup: () => Promise<void> };
beforeAll(async () => {
  s = await tempService();
});
afterAll(() => s.cleanup());

/** Numbers whose text and binary forms are easy to get wrong: shortest round-trip, subnormal, 17 digits, -0, money at a half micro. */
const AWKWARD = [0.1 + 0.2, 5e-324, 123456789.12345679, -0, 1e21, 0.0000005, 2.5e-7, 1234.5678915, -987654.3210005, 9007199254740993];

function fills(): object[] {
  return AWKWARD.map((x, i) => ({
    ...fill({
      time: at('2026-06-01T00:00:00Z') + i * 1001,
      tx: i === 3 ? "it's a 'quoted' tx" : `tx-${i}`,
      market_variant: i % 2 ? null : 'SOL/USD[WSOL-USDC]',
      price: x,
      entry_price: Math.abs(x),
      size_delta_usd: Math.abs(x) < 1e12 ? x : 1,
      index_price: x,
      funding_fee_usd: i % 3 ? null : 0.000001 * i,
      collateral_token: i % 4 ? 'USDC' : null,
    }),
    seq: 100 + i,
    position_id: 7 + (i % 3),
  }));
}

/** The staged rows of `table` as DuckDB holds them, doubles also by their bits (so -0 and 0 differ). */
async function staged(table: StagingTable, block: ColumnBlock, via: StageVia): Promise<unknown[]> {
  return s.service.db.write(async (w) => {
    await resetStaging(w);
    await stageBlock(w.connection, table, block, 42, via);
    const cols = STAGING[table].map(([n, type]) => (type === 'DOUBLE' ? `"${n}", signbit("${n}") AS "${n}_sign"` : `"${n}"::VARCHAR AS "${n}"`)).join(', ');
    return w.rows(`SELECT ${cols} FROM ${table} ORDER BY ord_row`);
  });
}

describe('staging a small block by one statement', () => {
  const cases: [StagingTable, () => ColumnBlock][] = [
    [
      'batch_fills',
      () =>
        toColumns(
          fills(),
          STAGING.batch_fills.filter(([n]) => n !== 'ord_row'),
        ),
    ],
    [
      'batch_msnap',
      () =>
        toColumns(
          AWKWARD.map((x, i) => marketSnapshot({ time: at('2026-06-01T00:00:00Z') + i, index_price: x, oi_long_usd: Math.abs(x) < 1e12 ? x : 0, funding_rate_long: x })),
          STAGING.batch_msnap.filter(([n]) => !n.startsWith('ord_')),
        ),
    ],
    [
      'batch_psnap',
      () =>
        toColumns(
          AWKWARD.map((x, i) => ({ ...positionSnapshot({ time: at('2026-06-01T00:00:00Z') + i, mark_price: x, liquidation_price: i % 2 ? null : x }), position_id: i })),
          STAGING.batch_psnap.filter(([n]) => !n.startsWith('ord_')),
        ),
    ],
  ];
  for (const [table, block] of cases) {
    it(`gives ${table} exactly the rows the appender gives`, async () => {
      const byAppender = await staged(table, block(), 'appender');
      expect(byAppender).toHaveLength(AWKWARD.length);
      expect(await staged(table, block(), 'statement')).toEqual(byAppender);
      // and a block this small takes the statement path by itself
      expect(await staged(table, block(), 'auto')).toEqual(byAppender);
    });
  }

  it('stages a string column that is null in every row (beta has no market variants)', async () => {
    const block = () =>
      toColumns(
        fills().map((f) => ({ ...f, protocol: 'beta', market_variant: null, collateral_token: null })),
        STAGING.batch_fills.filter(([n]) => n !== 'ord_row'),
      );
    const byAppender = await staged('batch_fills', block(), 'appender');
    expect(byAppender.every((r) => (r as { market_variant: unknown }).market_variant === null)).toBe(true);
    expect(await staged('batch_fills', block(), 'statement')).toEqual(byAppender);
  });

  it('keeps -0 and a quoted string as they are', async () => {
    const rows = (await staged(
      'batch_fills',
      toColumns(
        fills(),
        STAGING.batch_fills.filter(([n]) => n !== 'ord_row'),
      ),
      'statement',
    )) as Record<string, unknown>[];
    expect(rows[3]).toMatchObject({ price_sign: true, tx: "it's a 'quoted' tx", ord_row: '3' });
    expect(rows[0]).toMatchObject({ price: 0.1 + 0.2, price_sign: false });
  });
});
