import { createHash } from 'node:crypto';

/**
 * The SQL a text runs, for fingerprints: comments dropped and whitespace runs collapsed to one
 * space, outside quoted strings and identifiers (kept verbatim, quotes included). Two files that
 * differ only in comments or layout give the same text, so editing a header comment does not
 * make every data directory rebuild its derived state (server/derive/version.ts) or rewrite its
 * lifecycle store (server/http/lifecycle-store.ts).
 */
export function sqlWithoutComments(text: string): string {
  let out = '';
  let space = false;
  let i = 0;
  const emit = (s: string) => {
    if (space && out !== '') out += ' ';
    space = false;
    out += s;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      // a quoted string or identifier; a doubled quote inside it is an escaped quote
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      emit(text.slice(i, j + 1));
      i = j + 1;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      space = true;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      space = true;
    } else if (/\s/.test(c)) {
      space = true;
      i++;
    } else {
      emit(c);
      i++;
    }
  }
  return out;
}

/** A short hex fingerprint of SQL texts as they run (see {@link sqlWithoutComments}), in order. */
export function sqlFingerprint(texts: readonly string[]): string {
  const hash = createHash('sha256');
  // a separator no SQL text contains, so ["a", "bc"] and ["ab", "c"] differ
  for (const t of texts) hash.update(sqlWithoutComments(t)).update('\u0000');
  return hash.digest('hex').slice(0, 16);
}
