/**
 * The registry of SQL files (server/db/queries.ts) against the files themselves: every file is
 * listed; its header comment declares exactly the `$params` its SQL binds, and the registry lists
 * exactly those, in the order the SQL first uses them. Code that names a query by a literal names
 * a listed one.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Database } from '../../server/db/database.ts';
import { QUERY_PARAMS, type QueryName } from '../../server/db/queries.ts';
import { sqlWithoutComments } from '../../server/db/sql-fingerprint.ts';

const ROOT = join(import.meta.dirname, '../..');
const SQL = join(ROOT, 'sql');
const PARAM = /\$([a-z_][a-z0-9_]*)/gi;

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path, ext);
    return e.name.endsWith(ext) ? [path] : [];
  });
}

const names = (text: string): string[] => [...new Set([...text.matchAll(PARAM)].map((m) => m[1] as string))];

/** The leading comment lines of a SQL file: where it declares its parameters. */
function header(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*--/.test(line)) lines.push(line);
    else if (line.trim() !== '' || lines.length > 0) break;
  }
  return lines.join('\n');
}

const files = Object.fromEntries(filesUnder(SQL, '.sql').map((f) => [relative(SQL, f).replace(/\.sql$/, ''), readFileSync(f, 'utf8')]));

describe('the SQL registry (server/db/queries.ts)', () => {
  it('lists every file of sql/ and no other', () => {
    expect(Object.keys(QUERY_PARAMS).sort()).toEqual(Object.keys(files).sort());
  });

  it.each(Object.keys(files))('%s: the header declares exactly the parameters the SQL binds, and the registry lists them', (name) => {
    const text = files[name]!;
    const bound = names(sqlWithoutComments(text));
    const declared = names(header(text));
    expect(new Set(declared), 'header vs SQL').toEqual(new Set(bound));
    expect(QUERY_PARAMS[name as QueryName], 'registry vs SQL').toEqual(bound);
  });

  it('a header that misses or invents a parameter is caught', () => {
    const text = '-- One value. Parameters: $key VARCHAR.\nSELECT value FROM job_state WHERE key = $key AND x = $other;\n';
    expect(names(header(text))).toEqual(['key']);
    expect(names(sqlWithoutComments(text))).toEqual(['key', 'other']);
  });

  it('every query the code names by a literal is a registered file', () => {
    const call = /\b(?:run|query|queryOne|queryChunks|queryChunkColumns|sqlFile)\(\s*'([a-z0-9/_-]+)'/g;
    const sources = [...filesUnder(join(ROOT, 'server'), '.ts'), ...filesUnder(join(ROOT, 'jobs'), '.ts')];
    const used = new Set(sources.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(call)].map((m) => m[1] as string)));
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((n) => !(n in QUERY_PARAMS))).toEqual([]);
  });

  it('a call naming a registered file with a misspelt or missing parameter does not type-check', () => {
    // checked by `npm run typecheck` (tsc reads test/): each @ts-expect-error must meet an error
    const calls = (db: Database) => [
      // @ts-expect-error `adress` is not a parameter of sql/api/alpha-account.sql
      db.query('api/alpha-account', { protocol: 'alpha', address: 'A', adress: 'A' }),
      // @ts-expect-error `address` is missing
      db.queryOne('api/alpha-account', { protocol: 'alpha' }),
      db.query('api/alpha-account', { protocol: 'alpha', address: 'A' }),
    ];
    expect(calls).toBeTypeOf('function');
  });
});
