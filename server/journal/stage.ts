import { DuckDBTimestampValue, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
import { FILL_COLUMNS, MARKET_SNAPSHOT_COLUMNS, POSITION_SNAPSHOT_COLUMNS } from './rows.ts';

type Column = readonly [string, string];

/**
 * The writer connection's temp tables that hold one batch on its way into the journal and the
 * derived state. The extra `ord_*` columns record journal order: `ord_commit` is the batch's
 * commit number (or a file's first commit during a rebuild) and `ord_row` the row's position in it.
 */
export const STAGING = {
  batch_fills: [...FILL_COLUMNS, ['ord_row', 'INTEGER']] as Column[],
  batch_msnap: [...MARKET_SNAPSHOT_COLUMNS, ['ord_commit', 'BIGINT'], ['ord_row', 'INTEGER']] as Column[],
  batch_psnap: [...POSITION_SNAPSHOT_COLUMNS, ['ord_commit', 'BIGINT'], ['ord_row', 'INTEGER']] as Column[],
  batch_keys: [['protocol', 'VARCHAR'], ['tx', 'VARCHAR'], ['event_index', 'INTEGER'], ['slot', 'BIGINT'], ['ord_row', 'INTEGER']] as Column[],
} as const;
export type StagingTable = keyof typeof STAGING;

/** (Re)creates the empty staging tables on the writer connection. */
export async function resetStaging(conn: DuckDBConnection): Promise<void> {
  for (const [table, cols] of Object.entries(STAGING)) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE ${table} (${cols.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  }
}

function appendValue(ap: DuckDBAppender, type: string, v: unknown): void {
  if (v === null || v === undefined) return ap.appendNull();
  switch (type) {
    case 'VARCHAR':
      return ap.appendVarchar(v as string);
    case 'BIGINT':
      return ap.appendBigInt(BigInt(v as number));
    case 'INTEGER':
      return ap.appendInteger(v as number);
    case 'TIMESTAMP':
      return ap.appendTimestamp(new DuckDBTimestampValue(BigInt(v as number) * 1000n));
    default: // DOUBLE, and DECIMAL(18,6): the appender casts a double to the decimal exactly
      return ap.appendDouble(v as number);
  }
}

/**
 * Appends plain JS rows (times as epoch ms) into a staging table with DuckDB's appender, which
 * is far faster than INSERT statements for thousands of rows.
 */
export async function stageRows(conn: DuckDBConnection, table: StagingTable, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const cols = STAGING[table];
  const ap = await conn.createAppender(table, 'main', 'temp');
  try {
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      for (const [name, type] of cols) appendValue(ap, type, r[name]);
      ap.endRow();
    }
    ap.flushSync();
  } finally {
    ap.closeSync();
  }
}
