/**
 * Running SQL on one DuckDB connection: binding exactly the `$params` a text uses, and a
 * connection's cache of prepared statements (server/db/database.ts pools such connections).
 */
import type { DuckDBConnection, DuckDBPreparedStatement, DuckDBValue } from '@duckdb/node-api';
import { plainRowsOf } from './chunk-rows.ts';
import type { Plain } from './values.ts';

export type Params = Record<string, string | number | boolean | bigint | null | undefined>;
export type Row = Record<string, Plain>;

/**
 * Where the staging tables (server/journal/stage.ts) live. Declared here, beside the connection
 * that records it, so the db layer needs nothing from the journal.
 * - `shared` (the append path): in the in-memory database `stage` that every connection of the
 *   instance sees (server/db/database.ts), so the journal connection can COPY a batch while the
 *   writer derives from it. Written only outside transactions: a DuckDB transaction may write to
 *   one attached database only, and the derive transaction writes the derived one.
 * - `temp` (catch-up, the rollup refresh): the writer's temp tables, written inside a transaction
 *   with the derived tables. They shadow the shared ones (temp comes first in name resolution)
 *   until server/journal/stage.ts drops them.
 */
export type StagingPlace = 'shared' | 'temp';

/** A connection with its prepared statements (and, the writer's, its staging place). */
export interface PooledConnection {
  conn: DuckDBConnection;
  statements: Map<string, DuckDBPreparedStatement>;
  /** the writer's: where unqualified staging names resolve now (server/journal/stage.ts) */
  staging?: StagingPlace;
}

/** The `$params` of each SQL text seen (the sql/ files, a fixed set, plus tools' literals; 1,000 at most). */
const paramsOfSql = new Map<string, string[]>();

/** Names of the `$params` a SQL text uses, so we bind exactly those (DuckDB rejects extras). */
function paramNames(sql: string): string[] {
  let names = paramsOfSql.get(sql);
  if (!names) {
    const withoutComments = sql.replace(/--[^\n]*/g, '');
    names = [...new Set([...withoutComments.matchAll(/\$([a-z_][a-z0-9_]*)/gi)].map((m) => m[1] as string))];
    if (paramsOfSql.size < 1_000) paramsOfSql.set(sql, names);
  }
  return names;
}

/** The values of the `$params` that `sql` uses, from `params` (each must be given; undefined binds null). */
export function bindValues(sql: string, params: Params): Record<string, DuckDBValue> {
  const out: Record<string, DuckDBValue> = {};
  for (const name of paramNames(sql)) {
    if (!(name in params)) throw new Error(`SQL parameter $${name} not provided`);
    const v = params[name];
    out[name] = v === undefined ? null : (v as DuckDBValue);
  }
  return out;
}

/** Binds the `$params` that `sql` (the statement's text) uses, replacing earlier bindings. */
export function bindParams(stmt: DuckDBPreparedStatement, sql: string, params: Params): void {
  stmt.clearBindings();
  const values = bindValues(sql, params);
  if (Object.keys(values).length) stmt.bind(values);
}

/**
 * Runs `sql` on one connection and returns plain rows: a statement with `$params` through a cached
 * prepared statement (DuckDB binds and plans it again at every execution), one without as fresh
 * SQL every time. DuckDB never re-plans a cached statement that has no parameters while the tables
 * it reads are only written to, and its plan keeps what the optimizer inferred from the table
 * statistics at prepare time: prepared over an empty table, `SELECT x FROM t WHERE p = 'a'`
 * returns no row ever after (test/db/database-settings.test.ts).
 */
export async function runOn(pc: PooledConnection, key: string, sql: string, params: Params): Promise<Row[]> {
  if (paramNames(sql).length === 0) return plainRowsOf(await pc.conn.run(sql));
  let stmt = pc.statements.get(key);
  if (!stmt) {
    stmt = await pc.conn.prepare(sql);
    pc.statements.set(key, stmt);
  }
  bindParams(stmt, sql, params);
  return plainRowsOf(await stmt.run());
}
