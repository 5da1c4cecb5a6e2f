import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sqlFile } from '../db/sql-files.ts';

const DERIVE_DIR = fileURLToPath(new URL('../../sql/derive/', import.meta.url));

/**
 * A fingerprint of everything that shapes the derived state: the schema and every derive step.
 * Not the read-side macros (sql/schema/read-macros.sql): they shape answers only, so a change to
 * them must not cost a rebuild.
 * Stored in `meta`; a derived database made by other SQL is rebuilt from the journal at start-up
 * (it is throwaway by design), so a change to these files never leaves stale or missing rows.
 */
export function deriveVersion(): string {
  const hash = createHash('sha256').update(sqlFile('schema/derived'));
  for (const f of readdirSync(DERIVE_DIR).sort()) hash.update(f).update(sqlFile(`derive/${f.replace(/\.sql$/, '')}`));
  return hash.digest('hex').slice(0, 16);
}
