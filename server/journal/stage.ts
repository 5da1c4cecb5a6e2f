import { DOUBLE, DuckDBDataChunk, INTEGER, VARCHAR, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';
// the C API under @duckdb/node-api (its pinned dependency): one memcpy per column and chunk
import duckdb from '@duckdb/node-bindings';
import { isCoded, toColumns, type Column, type ColumnBlock } from '../ingest/columns.ts';
import type { Writer } from '../db/writer.ts';
import type { StagingPlace } from '../db/run-sql.ts';
import { FILL_COLUMNS, MARKET_SNAPSHOT_COLUMNS, POSITION_SNAPSHOT_COLUMNS } from './rows.ts';

type ColumnDef = readonly [string, string];

/**
 * The tables that hold one batch on its way into the journal and the derived state (where they
 * live: {@link StagingPlace}). The extra `ord_*` columns record journal order: `ord_commit` is
 * the batch's commit number (or a file's first commit during a rebuild) and `ord_row` the row's
 * position in it.
 */
export const STAGING = {
  batch_fills: [...FILL_COLUMNS, ['ord_row', 'INTEGER']] as ColumnDef[],
  batch_msnap: [...MARKET_SNAPSHOT_COLUMNS, ['ord_commit', 'BIGINT'], ['ord_row', 'INTEGER']] as ColumnDef[],
  batch_psnap: [...POSITION_SNAPSHOT_COLUMNS, ['ord_commit', 'BIGINT'], ['ord_row', 'INTEGER']] as ColumnDef[],
  batch_keys: [
    ['protocol', 'VARCHAR'],
    ['tx', 'VARCHAR'],
    ['event_index', 'INTEGER'],
    ['slot', 'BIGINT'],
    ['ord_row', 'INTEGER'],
  ] as ColumnDef[],
} as const;
export type StagingTable = keyof typeof STAGING;
export type { StagingPlace };

const CHUNK = 2048;
/** The number columns that may be null (NaN in a column block); validation keeps NaN out of the rest. */
const NULLABLE_NUMBERS: ReadonlySet<string> = new Set([
  'borrowing_fee_usd',
  'funding_fee_usd',
  'liquidation_fee_usd',
  'funding_earned_usd',
  'liquidation_price',
  'index_price_time',
  'position_entry_price',
]);

/** The statements (re)creating every staging table empty in `place`. */
const CREATE_STAGING: Record<StagingPlace, string> = {
  shared: createStaging((table) => `CREATE OR REPLACE TABLE stage.main.${table}`),
  temp: createStaging((table) => `CREATE OR REPLACE TEMP TABLE ${table}`),
};

function createStaging(head: (table: string) => string): string {
  return Object.entries(STAGING)
    .map(([table, cols]) => `${head(table)} (${cols.map(([n, t]) => `"${n}" ${t}`).join(', ')})`)
    .join('; ');
}

/**
 * (Re)creates the empty staging tables on the writer connection, in `place` (default shared).
 * Going back to shared drops the temp ones first: they would shadow it. The place is recorded
 * before the temp tables exist, so it never claims shared while temp ones might be there (one
 * created in a transaction that then rolled back is gone with it; dropping it again is harmless).
 */
export async function resetStaging(w: Writer, place: StagingPlace = 'shared'): Promise<void> {
  if (place === 'shared' && w.staging === 'temp') await dropTempStaging(w);
  w.staging = place;
  await w.exec(CREATE_STAGING[place]);
}

/** Drops the temp staging tables, so unqualified names reach the shared ones again. */
export async function dropTempStaging(w: Writer): Promise<void> {
  await w.exec(
    Object.keys(STAGING)
      .map((t) => `DROP TABLE IF EXISTS temp.main.${t}`)
      .join('; '),
  );
  w.staging = 'shared';
}

/** SQL turning a raw staged column (DOUBLE with NaN for null, a dictionary code, or a string) into its type. */
function castOf(name: string, type: string, column: Column | undefined): string {
  if (type === 'VARCHAR') return column && isCoded(column) ? `CASE WHEN r."${name}" >= 0 THEN d.words[r."${name}"::INTEGER + 1] END` : `r."${name}"`;
  // epoch ms → µs timestamp; ms values are integers, exact in a double
  if (type === 'TIMESTAMP') {
    const ms = NULLABLE_NUMBERS.has(name) ? `nullif(r."${name}", 'NaN'::DOUBLE)` : `r."${name}"`;
    return `make_timestamp((${ms} * 1000)::BIGINT)`;
  }
  if (NULLABLE_NUMBERS.has(name)) return `nullif(r."${name}", 'NaN'::DOUBLE)::${type}`;
  return `r."${name}"::${type}`;
}

async function appendChunks(
  ap: DuckDBAppender,
  types: (typeof DOUBLE | typeof VARCHAR | typeof INTEGER)[],
  count: number,
  fill: (chunk: DuckDBDataChunk, from: number, n: number) => void,
): Promise<void> {
  for (let from = 0; from < count; from += CHUNK) {
    const n = Math.min(CHUNK, count - from);
    const chunk = DuckDBDataChunk.create(types, n);
    fill(chunk, from, n);
    ap.appendDataChunk(chunk);
  }
  ap.flushSync();
}

/**
 * Blocks of at most this many rows are staged by one statement (see {@link stageBlock}). DuckDB
 * takes ~0.1 ms a row to parse and plan a VALUES list, so past ~50 rows the appender is faster in
 * all, and building the text then holds the loop longer than the appender's own calls
 * (`npm run bench:stage-blocking`; docs/performance.md, "Staging by statement or appender"). A live
 * append is tens of rows.
 */
const STATEMENT_ROWS = 48;

/** How a block is staged: by `appender` (bulk), by one `statement` (small), or by its size. */
export type StageVia = 'appender' | 'statement' | 'auto';

/**
 * Appends a column block (times as epoch ms) into a staging table. A small block (a live append:
 * tens of rows) is written as one INSERT statement, which DuckDB parses and runs off the event
 * loop, and in half the time for 15 rows (`npm run bench:stage-blocking`: 3.1-3.4 against
 * 5.8-6.4 ms); the appender's calls are synchronous (docs/performance.md, "Write path"). Both
 * ways give the same rows (test/journal/stage-statement.test.ts); larger blocks take the appender path.
 */
export async function stageBlock(conn: DuckDBConnection, table: StagingTable, block: ColumnBlock, commit = 0, via: StageVia = 'auto'): Promise<void> {
  if (block.length === 0) return;
  for (const [name] of STAGING[table]) {
    if (name !== 'ord_row' && name !== 'ord_commit' && !block.columns[name]) throw new Error(`staging ${table}: column ${name} missing`);
  }
  if (via === 'statement' || (via === 'auto' && block.length <= STATEMENT_ROWS)) return stageByStatement(conn, table, block, commit);
  return stageByAppender(conn, table, block, commit);
}

/** A value of a staged column as an SQL literal: strings quoted, numbers as their shortest round-trip text. */
function literalAt(column: Column | undefined, name: string, i: number, commit: number): string {
  if (column === undefined) return name === 'ord_commit' ? `'${commit}'` : `'${i}'`; // ord_row: the row index
  let text: string | null | undefined;
  if (column instanceof Float64Array) {
    const x = column[i]!;
    return Object.is(x, -0) ? "'-0'" : `'${x}'`; // NaN → 'NaN' (null, for the nullable ones)
  }
  if (isCoded(column)) {
    const k = column.codes[i]!;
    text = k < 0 ? null : column.dict[k];
  } else text = column[i];
  return text === null || text === undefined ? 'NULL' : `'${text.replaceAll("'", "''")}'`;
}

/**
 * Stages a block by one INSERT … SELECT over a VALUES list. Every value is a string literal:
 * DuckDB's VARCHAR → DOUBLE is correctly rounded, so a number's shortest round-trip text gives
 * back the same double, and the casts after it are the appender path's ({@link castOf}).
 */
async function stageByStatement(conn: DuckDBConnection, table: StagingTable, block: ColumnBlock, commit: number): Promise<void> {
  const cols = STAGING[table];
  const rows: string[] = [];
  for (let i = 0; i < block.length; i++) rows.push(`(${cols.map(([name]) => literalAt(block.columns[name], name, i, commit)).join(', ')})`);
  const raw = cols.map(([name, type], c) => (type === 'VARCHAR' ? `v.c${c} AS "${name}"` : `v.c${c}::DOUBLE AS "${name}"`)).join(', ');
  const select = cols.map(([name, type]) => castOf(name, type, undefined)).join(', ');
  await conn.run(`INSERT INTO ${table} SELECT ${select} FROM (SELECT ${raw} FROM (VALUES ${rows.join(', ')}) v(${cols.map((_, c) => `c${c}`).join(', ')})) r`);
}

/**
 * Stages a block fast in bulk: numbers go through
 * DuckDB data chunks (a typed-array copy per column and chunk) into a raw table of DOUBLEs,
 * coded strings as their codes into one per-batch dictionary (one native call per *distinct*
 * string), near-unique ones (tx) as they are; one INSERT … SELECT then casts and
 * decodes into the staging table. Money becomes DECIMAL(18,6) by DuckDB's exact cast of the
 * double. The order columns are filled here: `ord_row` = the block's `ord_row` or else the row
 * index, `ord_commit` = `commit`. Every other column of the table must be in the block.
 */
async function stageByAppender(conn: DuckDBConnection, table: StagingTable, block: ColumnBlock, commit: number): Promise<void> {
  const n = block.length;
  const cols = STAGING[table];
  // one dictionary for every coded column: each column's codes are mapped onto it
  const dict = new Map<string, number>();
  const remaps = new Map<string, Int32Array>();
  for (const [name] of cols) {
    const c = block.columns[name];
    if (c && isCoded(c))
      remaps.set(
        name,
        Int32Array.from(c.dict, (s) => dict.get(s) ?? (dict.set(s, dict.size), dict.size - 1)),
      );
  }
  const isDirect = (name: string) => {
    const c = block.columns[name];
    return Array.isArray(c);
  };
  const rawTypes = cols.map(([name]) => (isDirect(name) ? VARCHAR : DOUBLE));
  await conn.run(`CREATE OR REPLACE TEMP TABLE raw_stage (${cols.map(([name], c) => `"${name}" ${rawTypes[c] === VARCHAR ? 'VARCHAR' : 'DOUBLE'}`).join(', ')})`);
  const raw = await conn.createAppender('raw_stage', 'main', 'temp');
  const scratch = new Float64Array(CHUNK);
  try {
    await appendChunks(raw, rawTypes, n, (chunk, from, count) => {
      cols.forEach(([name], c) => {
        const col = block.columns[name];
        if (Array.isArray(col)) {
          const vec = chunk.getColumnVector(c);
          for (let i = 0; i < count; i++) vec.setItem(i, col[from + i] ?? null);
          return vec.flush();
        }
        // DOUBLE columns, never null (NaN is cast to null later): straight into the chunk's
        // vector, whose validity a fresh chunk has as all valid — no wrapper, which would first
        // copy the vector's data out and then its data and validity back in
        const vector = duckdb.data_chunk_get_vector(chunk.chunk, c);
        let src: Float64Array;
        if (col instanceof Float64Array) src = col.subarray(from, from + count);
        else {
          src = scratch.subarray(0, count);
          if (name === 'ord_commit') src.fill(commit);
          else if (col === undefined)
            for (let i = 0; i < count; i++) src[i] = from + i; // ord_row
          else {
            const remap = remaps.get(name)!;
            for (let i = 0; i < count; i++) {
              const k = col.codes[from + i]!;
              src[i] = k < 0 ? -1 : remap[k]!;
            }
          }
        }
        duckdb.copy_data_to_vector(vector, 0, src.buffer as ArrayBuffer, src.byteOffset, src.byteLength);
      });
    });
  } finally {
    raw.closeSync();
  }
  await conn.run('CREATE OR REPLACE TEMP TABLE raw_dict (code INTEGER, value VARCHAR)');
  const words = [...dict.keys()];
  const dictAp = await conn.createAppender('raw_dict', 'main', 'temp');
  try {
    await appendChunks(dictAp, [INTEGER, VARCHAR], words.length, (chunk, from, count) => {
      const codes = chunk.getColumnVector(0);
      const values = chunk.getColumnVector(1);
      for (let i = 0; i < count; i++) {
        codes.setItem(i, from + i);
        values.setItem(i, words[from + i] as string);
      }
      codes.flush();
      values.flush();
    });
  } finally {
    dictAp.closeSync();
  }
  // a code becomes its string by indexing the dictionary as one list (1-based): ~30 % less than
  // a hash join per coded column (a month of market snapshots: 523 → 368 ms)
  const select = cols.map(([name, type]) => castOf(name, type, block.columns[name])).join(', ');
  await conn.run(`INSERT INTO ${table} SELECT ${select} FROM raw_stage r CROSS JOIN (SELECT list(value ORDER BY code) AS words FROM raw_dict) d`);
  await conn.run('DROP TABLE raw_stage; DROP TABLE raw_dict');
}

/**
 * Appends plain JS rows (times as epoch ms) into a staging table through {@link stageBlock}.
 * `ord_row` comes from the rows when they have one, else from their index.
 */
export async function stageRows(conn: DuckDBConnection, table: StagingTable, rows: readonly object[], commit = 0): Promise<void> {
  if (rows.length === 0) return;
  const own = 'ord_row' in (rows[0] as object);
  const cols = STAGING[table].filter(([name]) => name !== 'ord_commit' && (name !== 'ord_row' || own));
  await stageBlock(conn, table, toColumns(rows, cols), commit);
}
