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
/** Strings nearly unique per row: a dictionary would only add a join, so they go in as they are. */
const DIRECT_STRINGS = new Set(['tx', 'position_key']);
const isCoded = (name: string, type: string): boolean => type === 'VARCHAR' && !DIRECT_STRINGS.has(name);

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
      return isCoded(name, type) ? `d_${name}.value` : `r."${name}"`;
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
 * repetitive strings through a per-batch dictionary (one native call per *distinct* string, e.g.
 * ~15 for a month of market snapshots), near-unique ones (tx, position key) as they are; one
 * INSERT … SELECT then casts and decodes into the staging table. Money becomes DECIMAL(18,6) by DuckDB's exact cast. The order columns are filled here
 * (no copy of the rows): `ord_row` = the row's own `ord_row` or else its index, `ord_commit` = `commit`.
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
  const rawTypes = cols.map(([n, t]) => (t === 'VARCHAR' && !isCoded(n, t) ? VARCHAR : DOUBLE));
  await conn.run(`CREATE OR REPLACE TEMP TABLE raw_stage (${cols.map(([n], c) => `"${n}" ${rawTypes[c] === VARCHAR ? 'VARCHAR' : 'DOUBLE'}`).join(', ')})`);
  const raw = await conn.createAppender('raw_stage', 'main', 'temp');
  try {
    await appendChunks(raw, rawTypes, rows.length, (chunk, from, n) => {
      cols.forEach(([name, type], c) => {
        const vec = chunk.getColumnVector(c);
        if (name === 'ord_commit') {
          for (let i = 0; i < n; i++) vec.setItem(i, commit);
          return vec.flush();
        }
        if (name === 'ord_row') {
          for (let i = 0; i < n; i++) vec.setItem(i, (rows[from + i] as { ord_row?: number }).ord_row ?? from + i);
          return vec.flush();
        }
        // DOUBLE columns: write the chunk's Float64Array directly and leave setItem to nulls (it
        // keeps the validity mask with BigInt arithmetic: ~10x the cost per value). The field is
        // internal to @duckdb/node-api (pinned by the lock file); without it, setItem does all.
        const items = rawTypes[c] === DOUBLE ? (vec as unknown as { items?: unknown }).items : undefined;
        const direct = items instanceof Float64Array ? items : undefined;
        const coded = isCoded(name, type);
        for (let i = 0; i < n; i++) {
          const v = (rows[from + i] as Record<string, unknown>)[name];
          if (v === null || v === undefined) vec.setItem(i, null);
          else if (direct) direct[i] = coded ? codeOf(v as string) : (v as number);
          else vec.setItem(i, coded ? codeOf(v as string) : (v as number | string));
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
    .filter(([n, t]) => isCoded(n, t))
    .map(([n]) => `LEFT JOIN raw_dict d_${n} ON d_${n}.code = r."${n}"::INTEGER`)
    .join(' ');
  await conn.run(`INSERT INTO ${table} SELECT ${cols.map(([n, t]) => castOf(n, t)).join(', ')} FROM raw_stage r ${joins}`);
  await conn.run('DROP TABLE raw_stage; DROP TABLE raw_dict');
}
