/**
 * The fingerprints that decide whether a data directory rebuilds its derived state
 * (server/derive/version.ts) or rewrites its lifecycle store: comments and layout must not count,
 * anything that runs must.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { macrosUsedBy, sqlFingerprint, sqlWithoutComments } from '../../server/db/sql-fingerprint.ts';

const BASE = `-- Adds the markets of the batch.
-- No parameters.
INSERT INTO markets
SELECT DISTINCT b.protocol, b.market  -- the keys
FROM batch_rollup b
WHERE b.market <> '--not a comment--' AND b.protocol <> 'it''s -- still a string';
`;

describe('sqlWithoutComments', () => {
  it('drops line and block comments and collapses layout, outside strings and identifiers', () => {
    expect(sqlWithoutComments(BASE)).toBe(
      "INSERT INTO markets SELECT DISTINCT b.protocol, b.market FROM batch_rollup b WHERE b.market <> '--not a comment--' AND b.protocol <> 'it''s -- still a string';",
    );
    expect(sqlWithoutComments('SELECT /* one\ntwo */ "a  --b" FROM t')).toBe('SELECT "a  --b" FROM t');
  });
});

describe('sqlFingerprint', () => {
  it('is the same when only comments or line breaks change', () => {
    const edited = BASE.replace('-- Adds the markets of the batch.', '-- Adds the markets of the batch, read from batch_rollup\n-- (a longer header).').replace(
      'SELECT DISTINCT b.protocol, b.market  -- the keys',
      'SELECT DISTINCT\n  b.protocol,\n  b.market',
    );
    expect(sqlFingerprint([edited])).toBe(sqlFingerprint([BASE]));
  });

  it('changes with anything that runs, string contents included, and with how texts are split', () => {
    const base = sqlFingerprint([BASE]);
    expect(sqlFingerprint([BASE.replace('batch_rollup', 'batch_fills')])).not.toBe(base);
    expect(sqlFingerprint([BASE.replace("'--not a comment--'", "'--not a comment!'")])).not.toBe(base);
    expect(sqlFingerprint([BASE, 'SELECT 1'])).not.toBe(base);
    expect(sqlFingerprint(['SELECT 1', '2'])).not.toBe(sqlFingerprint(['SELECT 12']));
  });
});

describe('macrosUsedBy', () => {
  const MACROS = `-- Shared macros.
CREATE OR REPLACE MACRO inner_rows(src) AS TABLE
  SELECT * FROM query_table(src) WHERE x > 0;
-- the outer one calls the inner one
CREATE OR REPLACE MACRO outer_rows() AS TABLE
  SELECT a, b FROM Inner_Rows ('t');
DROP MACRO TABLE IF EXISTS replaced_rows;
CREATE OR REPLACE MACRO unrelated(n) AS TABLE
  SELECT n AS v;
CREATE OR REPLACE MACRO inner_rows_2() AS TABLE SELECT 2;
`;
  const QUERY = 'SELECT * FROM outer_rows() -- not unrelated(1)\n';

  it('keeps the macros a query calls, through other macros, and no others', () => {
    const used = macrosUsedBy(MACROS, [QUERY]);
    expect(used.map((t) => /MACRO (\w+)/.exec(t)![1])).toEqual(['inner_rows', 'outer_rows']);
    // a definition carries what follows it up to the next one
    expect(used[1]).toContain('DROP MACRO TABLE IF EXISTS replaced_rows;');
    expect(macrosUsedBy(MACROS, ['SELECT 1'])).toEqual([]);
  });

  it('makes a fingerprint that moves with the macros called, not with the others', () => {
    const print = (macros: string) => sqlFingerprint([QUERY, ...macrosUsedBy(macros, [QUERY])]);
    const base = print(MACROS);
    expect(print(MACROS.replace('SELECT n AS v', 'SELECT n + 1 AS v'))).toBe(base);
    expect(print(MACROS.replace('SELECT 2', 'SELECT 3'))).toBe(base);
    expect(print(MACROS.replace('-- the outer one calls the inner one', '-- edited'))).toBe(base);
    expect(print(MACROS.replace('WHERE x > 0', 'WHERE x >= 0'))).not.toBe(base);
    expect(print(MACROS.replace('SELECT a, b', 'SELECT a'))).not.toBe(base);
  });

  it('finds what the lifecycle store calls in the real macro file (and not the account shapes)', () => {
    const read = (f: string) => readFileSync(new URL(`../../sql/${f}.sql`, import.meta.url), 'utf8');
    const store = ['read/lifecycles/store/lifecycle-docs', 'read/lifecycles/store/account-docs', 'read/lifecycles/store/open-prefix-docs'].map(read);
    const names = macrosUsedBy(read('schema/read-macros'), store).map((t) => /MACRO (\w+)/.exec(t)![1]);
    expect(names).toEqual(['alpha_record_shape', 'record_docs', 'timeline_docs']);
  });
});
