import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SQL_ROOT = fileURLToPath(new URL('../../sql/', import.meta.url));
const cache = new Map<string, string>();

/**
 * Returns the text of `sql/<name>.sql` (cached). Every query the service runs lives in such a
 * file, with a header comment naming its parameters; values are always bound, never spliced.
 */
export function sqlFile(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(`${SQL_ROOT}${name}.sql`, 'utf8');
    cache.set(name, text);
  }
  return text;
}
