/**
 * The fingerprints that decide whether a data directory rebuilds its derived state
 * (server/derive/version.ts) or rewrites its lifecycle store: comments and layout must not count,
 * anything that runs must.
 */
import { describe, expect, it } from 'vitest';
import { sqlFingerprint, sqlWithoutComments } from '../server/db/sql-fingerprint.ts';

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
    const edited = BASE.replace('-- Adds the markets of the batch.', '-- Adds the markets of the batch, read from batch_rollup\n-- (a longer header).')
      .replace('SELECT DISTINCT b.protocol, b.market  -- the keys', 'SELECT DISTINCT\n  b.protocol,\n  b.market');
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
