/**
 * docs/journal.md against a real journal: its column tables list exactly the columns the files
 * have (as DuckDB reads them with hive partitioning), and every SQL example runs against a small
 * hand-built journal and gives the known answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { at, fill, marketSnapshot, positionSnapshot, tempService } from '../helpers/fixtures.ts';
import { COLUMNS_OF, type JournalKind } from '../../server/journal/rows.ts';

const PAGE = readFileSync('docs/journal.md', 'utf8');
const A = 'AddrA111111111111111111111111111111111111111';
const B = 'AddrB111111111111111111111111111111111111111';

let dir: string;
let cleanup: () => Promise<void>;
let instance: DuckDBInstance;
let conn: DuckDBConnection;

/**
 * A's SOL long: open 1,000 (fee 0.5), close at 110 (pnl +100, fee 0.5, borrowing 0.2); B's BTC
 * short opened on the next day and still open, with two snapshots; beta: one open of A. Market
 * snapshots of one variant at 00:10 and 00:40 (funding -0.0001 then -0.0003).
 */
beforeAll(async () => {
  const t = await tempService(at('2026-06-03T00:00:00Z'));
  ({ dir, cleanup } = t);
  await t.service.append({
    fills: [
      fill({ time: at('2026-06-01T01:00:00Z'), address: A, position_key: 'A1' }),
      fill({
        time: at('2026-06-01T02:00:00Z'),
        address: A,
        position_key: 'A1',
        type: 'close',
        size_delta_usd: -1000,
        position_size_usd: 0,
        collateral_delta_usd: -100,
        position_collateral_usd: 0,
        price: 110,
        pnl_delta_usd: 100,
        borrowing_fee_usd: 0.2,
        fee_total_usd: 0.7,
      }),
      fill({
        time: at('2026-06-02T03:00:00Z'),
        address: B,
        position_key: 'B1',
        market: 'BTC-PERP',
        market_variant: 'BTC/USD[USDC-USDC]',
        side: 'short',
        size_delta_usd: 2000,
        position_size_usd: 2000,
        price: 65000,
        entry_price: 65000,
        fee_usd: 1,
        fee_total_usd: 1,
      }),
      fill({ time: at('2026-06-02T04:00:00Z'), protocol: 'beta', address: A, position_key: 'F1', market_variant: null, size_delta_usd: 300, position_size_usd: 300 }),
    ],
    marketSnapshots: [
      marketSnapshot({ time: at('2026-06-01T00:10:00Z'), funding_rate_long: -0.0001, funding_rate_short: 0.00005 }),
      marketSnapshot({ time: at('2026-06-01T00:40:00Z'), funding_rate_long: -0.0003, funding_rate_short: 0.00015 }),
    ],
    positionSnapshots: [
      positionSnapshot({ time: at('2026-06-02T03:00:00Z'), position_key: 'B1', size_usd: 2000, mark_price: 65000 }),
      positionSnapshot({ time: at('2026-06-02T05:00:00Z'), position_key: 'B1', size_usd: 2000, mark_price: 64000, source: 'poll' }),
    ],
  });
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
});
afterAll(async () => {
  conn?.closeSync();
  instance?.closeSync();
  await cleanup?.();
});

/** The page's SQL blocks, pointed at the test journal. */
function examples(): string[] {
  return [...PAGE.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll("'data/journal/", `'${dir}/journal/`));
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const reader = await conn.runAndReadAll(sql);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

/** Column names of a `### <kind>` table of the page. */
function documentedColumns(kind: JournalKind): string[] {
  const section = PAGE.split(`### ${kind}\n`)[1]!.split('\n## ')[0]!.split('\n### ')[0]!;
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]!);
}

describe('docs/journal.md', () => {
  it('lists exactly the columns of each kind, in file order', async () => {
    for (const kind of Object.keys(COLUMNS_OF) as JournalKind[]) {
      const inFiles = (await rows(`DESCRIBE SELECT * FROM read_parquet('${dir}/journal/${kind}/**/*.parquet', hive_partitioning = false)`)).map((r) => r.column_name);
      expect(documentedColumns(kind), kind).toEqual(inFiles);
      // the partition columns come from the path
      const hive = (await rows(`DESCRIBE SELECT * FROM read_parquet('${dir}/journal/${kind}/**/*.parquet', hive_partitioning = true)`)).map((r) => r.column_name);
      expect(hive.filter((c) => !inFiles.includes(c)).sort(), kind).toEqual(['day', 'protocol']);
    }
  });

  it('has five DuckDB examples, and each gives the known answer', async () => {
    const sql = examples();
    expect(sql).toHaveLength(5);
    const [perDay, timeline, pnl, funding, open] = await Promise.all(sql.map(rows));

    expect(perDay).toEqual([
      { protocol: 'alpha', day: '2026-06-01', fills: '2', volume_usd: '2000.000000', fees_usd: '1.000000' },
      { protocol: 'alpha', day: '2026-06-02', fills: '1', volume_usd: '2000.000000', fees_usd: '1.000000' },
      { protocol: 'beta', day: '2026-06-02', fills: '1', volume_usd: '300.000000', fees_usd: '0.500000' },
    ]);
    expect(timeline!.map((r) => r.type)).toEqual(['open', 'close']);
    expect(pnl![0]).toMatchObject({ address: A, net_pnl_usd: '98.800000', closed: '1' });
    expect(funding).toEqual([{ market_variant: 'SOL/USD[WSOL-USDC]', hour: '2026-06-01 00:00:00', funding_rate_long: expect.closeTo(-0.0002, 15), funding_rate_short: expect.closeTo(0.0001, 15) }]);
    expect(open).toEqual([expect.objectContaining({ protocol: 'alpha', size_usd: '2000.000000', mark_price: 64000, updated_at: '2026-06-02 05:00:00' })]);
  });
});
