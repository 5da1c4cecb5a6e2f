/**
 * Comments in server/, jobs/ and sql/ say what and why (docs/architecture.md, "Words in comments"):
 * they cite no issue, name no endpoint by a number from a document outside the repository, and carry
 * no date. The history is in git and the measurements are in docs/performance.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offenders, performanceReferences, sqlComments, tsComments } from '../helpers/comment-scan.ts';

describe('words in comments', () => {
  it('finds comments in TypeScript and SQL, not strings', () => {
    const source = "const a = '// not a comment'; // one\n/** two */ const b = `/* no */`;\nconst r = /x\\/\\//; // three\n";
    expect(tsComments(source).map((c) => c.text)).toEqual(['// one', '/** two */', '// three']);
    const sql = "SELECT '--not' AS a, 1 -- one\n/* two */ FROM t;\n-- three";
    expect(sqlComments(sql).map((c) => c.text)).toEqual(['-- one', '/* two */', '-- three']);
  });

  it('cite no issue, number no endpoint and carry no date in server/, jobs/ and sql/', () => {
    expect(offenders()).toEqual([]);
  });

  it('name only headings that docs/performance.md has, where they point to its figures', () => {
    const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'performance.md'), 'utf8');
    const headings = new Set([...page.matchAll(/^#{2,4} (.+)$/gm)].map((m) => m[1]!.trim()));
    const refs = performanceReferences();
    expect(refs.length).toBeGreaterThan(20);
    expect(refs.filter((r) => !headings.has(r.heading))).toEqual([]);
  });
});
