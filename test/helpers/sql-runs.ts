/**
 * Counts the SQL files a service's database runs by name (tests that check which answers came from
 * DuckDB and which from an in-memory set or the lifecycle store).
 */
import type { Database } from '../../server/db/database.ts';

/** Wraps `db.query` for good: the returned map counts each SQL file's runs (clear it between checks). */
export function countSqlRuns(db: Database): Map<string, number> {
  const ran = new Map<string, number>();
  const query = db.query.bind(db);
  db.query = (name, params) => {
    ran.set(name, (ran.get(name) ?? 0) + 1);
    return query(name, params);
  };
  return ran;
}
