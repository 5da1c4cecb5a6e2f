/**
 * The row types of the queries routes run (server/db/query-rows.ts) against the queries themselves:
 * every file of sql/api/ that is run by name has a row type, and each row type lists exactly the
 * columns DuckDB says the prepared query returns, in order, with their types. The queries are
 * prepared (not run) on the derived state of an empty journal, so the test reads no data.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { QUERY_PARAMS } from '../../server/db/queries.ts';
import { QUERY_ROWS, type RowQueryName } from '../../server/db/query-rows.ts';
import { sqlFile } from '../../server/db/sql-files.ts';
import { openService, type Service } from '../../server/service.ts';

const API = join(import.meta.dirname, '..', '..', 'sql', 'api');
const apiFiles = readdirSync(API)
  .filter((f) => f.endsWith('.sql'))
  .map((f) => `api/${f.replace(/\.sql$/, '')}`)
  .sort();
/** Files whose text server/read/prices/price-candles.ts completes at run time (`__NAME__` placeholders): never run by name. */
const templated = apiFiles.filter((n) => /__[A-Z]+__/.test(readFileSync(join(API, `${n.slice(4)}.sql`), 'utf8')));

let dir: string;
let service: Service;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sql-rows-'));
  service = await openService({ dataDir: dir });
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `[name, DuckDB type]` of each column the prepared query returns, in order. */
async function columnsOf(name: string): Promise<Array<[string, string]>> {
  return service.db.write(async (w) => {
    const stmt = await w.connection.prepare(sqlFile(name as RowQueryName));
    try {
      return Array.from({ length: stmt.columnCount }, (_, i): [string, string] => [stmt.columnName(i), stmt.columnType(i).toString()]);
    } finally {
      stmt.destroySync();
    }
  });
}

describe('the row types of sql/api/ (server/db/query-rows.ts)', () => {
  it('lists every query of sql/api/ but the templated ones, and only registered queries', () => {
    // the templated price files sit with the price candles' read model; none is left in sql/api/
    expect(templated).toEqual([]);
    const priceTemplates = ['read/prices/prices-edge', 'read/prices/prices-first-snapshot', 'read/prices/prices-history'];
    for (const n of priceTemplates) expect(sqlFile(n as RowQueryName)).toMatch(/__[A-Z]+__/);
    expect(apiFiles.filter((n) => !(n in QUERY_ROWS))).toEqual([]);
    expect(Object.keys(QUERY_ROWS).filter((n) => !(n in QUERY_PARAMS) || priceTemplates.includes(n))).toEqual([]);
  });

  it.each(Object.keys(QUERY_ROWS))('%s: the row type has exactly the columns the query returns, in order, with their types', async (name) => {
    expect(Object.entries(QUERY_ROWS[name as RowQueryName])).toEqual(await columnsOf(name));
  });

  it('a misspelt column of a row type is caught', async () => {
    const columns = await columnsOf('read/lifecycles/alpha-account-exists');
    expect(columns).not.toEqual(Object.entries({ accountExists: 'BOOLEAN' }));
    expect(columns).not.toEqual(Object.entries({ account_exists: 'VARCHAR' }));
  });

  it('reading a column the query does not return does not type-check', () => {
    // checked by `npm run typecheck` (tsc reads test/): each @ts-expect-error must meet an error
    const reads = async (db: Database) => {
      const row = await db.queryOne('read/lifecycles/alpha-account-exists', { protocol: 'alpha', address: 'A' });
      const exists: boolean | null | undefined = row?.account_exists;
      // @ts-expect-error `exists` is not a column of sql/read/lifecycles/alpha-account-exists.sql
      const misspelt = row?.exists;
      const [market] = await db.query('api/alpha-markets');
      // @ts-expect-error `market` is a string, not a number
      const wrong: number | null | undefined = market?.market;
      return [exists, misspelt, wrong];
    };
    expect(reads).toBeTypeOf('function');
  });
});
