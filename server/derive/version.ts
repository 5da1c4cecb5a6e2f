import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sqlFingerprint } from '../db/sql-fingerprint.ts';
import { sqlFile } from '../db/sql-files.ts';

const DERIVE_DIR = fileURLToPath(new URL('../../sql/derive/', import.meta.url));

/**
 * A fingerprint of everything that shapes the derived state: the schema and every derive step,
 * as they run (comments and layout do not count, server/db/sql-fingerprint.ts). Not the read-side
 * macros (sql/schema/read-macros.sql): they shape answers only, so a change to them must not cost
 * a rebuild.
 * Stored in `meta`; a derived database made by other SQL is rebuilt from the journal at start-up
 * (it is throwaway by design), so a change to these files never leaves stale or missing rows.
 */
export function deriveVersion(): string {
  const files = readdirSync(DERIVE_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return sqlFingerprint([sqlFile('schema/derived'), ...files.flatMap((f) => [f, sqlFile(`derive/${f.replace(/\.sql$/, '')}`)])]);
}
