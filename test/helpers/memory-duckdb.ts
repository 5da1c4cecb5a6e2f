import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';

/**
 * An in-memory DuckDB for one test file: opened before its tests, closed after them. Returns a
 * getter for the connection (call it inside tests, once the file's `beforeAll` has run).
 */
export function memoryDuckDB(): () => DuckDBConnection {
  let instance: DuckDBInstance | undefined;
  let conn: DuckDBConnection | undefined;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
  });
  afterAll(() => {
    conn?.closeSync();
    instance?.closeSync();
  });
  return () => {
    if (!conn) throw new Error('memoryDuckDB: the connection is opened in beforeAll');
    return conn;
  };
}
