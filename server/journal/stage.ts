import { DOUBLE, DuckDBDataChunk, INTEGER, VARCHAR, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
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

const CHUNK = 2048;

/** (Re)creates the empty staging tables on the writer connection. */
export async function resetStaging(conn: DuckDBConnection): Promise<void> {
  for (const [table, cols] of Object.entries(STAGING)) {
    await conn.run(`CREATE OR REPLACE TEMP TABLE ${table} (${cols.map(([n, t]) => `"${n}" ${t}`).join(', ')})`);
  }
}

/** SQL turning a raw staged column (DOUBLE, or a dictionary code for strings) into its type. */
function castOf(name: string, type: string): string {
  switch (type) {
    case 'VARCHAR':
      return `d_${name}.value`;
    case 'TIMESTAMP': // epoch ms → µs timestamp; ms values are integers, exact in a double
      return `make_timestamp((r."${name}" * 1000)::BIGINT)`;
    default:
      return `r."${name}"::${type}`;
  }
}

async function appendChunks(ap: DuckDBAppender, types: (typeof DOUBLE | typeof VARCHAR | typeof INTEGER)[], count: number,
  fill: (chunk: DuckDBDataChunk, from: number, n: number) => void): Promise<void> {
  for (let from = 0; from < count; from += CHUNK) {
    const n = Math.min(CHUNK, count - from);
    const chunk = DuckDBDataChunk.create(types, n);
    fill(chunk, from, n);
    ap.appendDataChunk(chunk);
  }
  ap.flushSync();
}

/**
 * Appends plain JS rows (times as epoch ms) into a staging table, fast: numbers go through
 * DuckDB data chunks (typed arrays copied in one call per column) into a raw table of DOUBLEs,
 * strings through a per-batch dictionary (one native call per *distinct* string, e.g. ~15 for
 * a month of market snapshots); one INSERT … SELECT then casts and decodes into the staging
 * table. Money becomes DECIMAL(18,6) by DuckDB's exact cast. The order columns are filled here
 * (no copy of the rows): `ord_row` = the row's index, `ord_commit` = `commit`.
 */
export async function stageRows(conn: DuckDBConnection, table: StagingTable, rows: readonly object[], commit = 0): Promise<void> {
  if (rows.length === 0) return;
  const cols = STAGING[table];
  const dict = new Map<string, number>();
  const codeOf = (s: string): number => {
    let c = dict.get(s);
    if (c === undefined) dict.set(s, (c = dict.size));
    return c;
  };
  await conn.run(`CREATE OR REPLACE TEMP TABLE raw_stage (${cols.map(([n]) => `"${n}" DOUBLE`).join(', ')})`);
  const raw = await conn.createAppender('raw_stage', 'main', 'temp');
  try {
    await appendChunks(raw, cols.map(() => DOUBLE), rows.length, (chunk, from, n) => {
      cols.forEach(([name, type], c) => {
        const vec = chunk.getColumnVector(c);
        if (name === 'ord_row' || name === 'ord_commit') {
          for (let i = 0; i < n; i++) vec.setItem(i, name === 'ord_row' ? from + i : commit);
          return vec.flush();
        }
        for (let i = 0; i < n; i++) {
          const v = (rows[from + i] as Record<string, unknown>)[name];
          vec.setItem(i, v === null || v === undefined ? null : type === 'VARCHAR' ? codeOf(v as string) : (v as number));
        }
        vec.flush();
      });
    });
  } finally {
    raw.closeSync();
  }
  await conn.run('CREATE OR REPLACE TEMP TABLE raw_dict (code INTEGER, value VARCHAR)');
  const words = [...dict.keys()];
  const dictAp = await conn.createAppender('raw_dict', 'main', 'temp');
  try {
    await appendChunks(dictAp, [INTEGER, VARCHAR], words.length, (chunk, from, n) => {
      const codes = chunk.getColumnVector(0);
      const values = chunk.getColumnVector(1);
      for (let i = 0; i < n; i++) {
        codes.setItem(i, from + i);
        values.setItem(i, words[from + i] as string);
      }
      codes.flush();
      values.flush();
    });
  } finally {
    dictAp.closeSync();
  }
  const joins = cols
    .filter(([, t]) => t === 'VARCHAR')
    .map(([n]) => `LEFT JOIN raw_dict d_${n} ON d_${n}.code = r."${n}"::INTEGER`)
    .join(' ');
  await conn.run(`INSERT INTO ${table} SELECT ${cols.map(([n, t]) => castOf(n, t)).join(', ')} FROM raw_stage r ${joins}`);
  await conn.run('DROP TABLE raw_stage; DROP TABLE raw_dict');
}
