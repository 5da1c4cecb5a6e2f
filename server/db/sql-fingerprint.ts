import { createHash } from 'node:crypto';

/**
 * The SQL a text runs, for fingerprints: comments dropped and whitespace runs collapsed to one
 * space, outside quoted strings and identifiers (kept verbatim, quotes included). Two files that
 * differ only in comments or layout give the same text, so editing a header comment does not
 * make every data directory rebuild its derived state (server/derive/version.ts) or rewrite its
 * lifecycle store (server/read/lifecycles/lifecycle-store.ts).
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

/**
 * The definitions in `macrosText` (a file of `CREATE OR REPLACE MACRO name(…) AS …;` statements,
 * e.g. sql/schema/read-macros.sql) that `texts` call, directly or through another macro, as they
 * run ({@link sqlWithoutComments}), in file order: what a fingerprint of `texts` must include, and
 * no more. A call is the macro's name followed by `(` (table and scalar macros are always called
 * so); names match case-insensitively, as DuckDB's do. Anything after a definition up to the next
 * one (a `DROP MACRO` of a replaced name) goes with it.
 *
 * Why: the lifecycle store's files are a function of the SQL that wrote them; fingerprinting the
 * whole macro file made every data directory rewrite its store (75 s and 3.2 GB on the bench
 * journal) when a macro it never calls changed.
 */
export function macrosUsedBy(macrosText: string, texts: readonly string[]): string[] {
  const definitions = sqlWithoutComments(macrosText)
    .split(/(?=CREATE OR REPLACE MACRO )/i)
    .map((text) => ({ name: /^CREATE OR REPLACE MACRO (\w+)/i.exec(text)?.[1]?.toLowerCase(), text }))
    .filter((d): d is { name: string; text: string } => d.name !== undefined);
  const calls = (text: string, name: string): boolean => new RegExp(`\\b${name}\\s*\\(`, 'i').test(text);
  const used = new Set<string>();
  let frontier = texts.map(sqlWithoutComments);
  while (frontier.length > 0) {
    const found = definitions.filter((d) => !used.has(d.name) && frontier.some((t) => calls(t, d.name)));
    for (const d of found) used.add(d.name);
    // a macro's own body may call others (not itself: a name is only added once)
    frontier = found.map((d) => d.text.replace(/^CREATE OR REPLACE MACRO \w+/i, ''));
  }
  return definitions.filter((d) => used.has(d.name)).map((d) => d.text);
}
