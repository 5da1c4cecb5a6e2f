/**
 * The comments of the TypeScript and SQL files, and those that break the rule on words in comments
 * (docs/architecture.md, "Words in comments"). Only comments are read: a date in code (an example,
 * a default) is data.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['server', 'jobs', 'sql'];
/** A reference to an issue or to an endpoint by number (singular or plural), or a calendar date (year-month-day). */
const FORBIDDEN = /issue [0-9]|endpoints? [0-9]|20[0-9]{2}-[0-9]{2}-[0-9]{2}/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|sql)$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.includes('node_modules'));
}

/** The comments of a TypeScript file with the offset each starts at, found through the compiler's own parser. */
export function tsComments(text: string): Array<{ pos: number; text: string }> {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, false);
  const found = new Map<number, string>();
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(file);
  take(ts.getLeadingCommentRanges(text, file.endOfFileToken.pos));
  return [...found].map(([pos, t]) => ({ pos, text: t })).sort((a, b) => a.pos - b.pos);
}

/** The comments of a SQL file: `-- …` to the end of the line and `/* … *\/`, outside string literals. */
export function sqlComments(text: string): Array<{ pos: number; text: string }> {
  const out: Array<{ pos: number; text: string }> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      i = close < 0 ? text.length : close;
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out.push({ pos: i, text: text.slice(i, stop) });
      i = stop;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out.push({ pos: i, text: text.slice(i, stop) });
      i = stop - 1;
    }
  }
  return out;
}

const cache = new Map<string, { text: string; comments: Array<{ pos: number; text: string }> }>();
/** A file's text and comments, parsed once per process. */
function commentsOf(file: string): { text: string; comments: Array<{ pos: number; text: string }> } {
  let hit = cache.get(file);
  if (!hit) {
    const text = readFileSync(file, 'utf8');
    cache.set(file, (hit = { text, comments: file.endsWith('.sql') ? sqlComments(text) : tsComments(text) }));
  }
  return hit;
}

/** `path:line: text` of every comment line that matches {@link FORBIDDEN}. */
export function offenders(): string[] {
  const hits: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of filesUnder(join(ROOT, folder))) {
      const { text, comments } = commentsOf(file);
      for (const c of comments) {
        const firstLine = text.slice(0, c.pos).split('\n').length;
        c.text.split('\n').forEach((line, k) => {
          if (FORBIDDEN.test(line)) hits.push(`${relative(ROOT, file)}:${firstLine + k}: ${line.trim()}`);
        });
      }
    }
  }
  return hits;
}

/** Every heading of docs/performance.md that a comment names (`docs/performance.md, "Heading"`), with where. */
export function performanceReferences(): Array<{ where: string; heading: string }> {
  const refs: Array<{ where: string; heading: string }> = [];
  for (const folder of FOLDERS) {
    for (const file of filesUnder(join(ROOT, folder))) {
      const { comments } = commentsOf(file);
      // a SQL file's `--` lines are one comment each: read them as one text, so a name may wrap
      const texts = file.endsWith('.sql') ? [comments.map((c) => c.text).join('\n')] : comments.map((c) => c.text);
      for (const text of texts) {
        const flat = text.replace(/\n\s*(?:\*|--|\/\/)\s?/g, ' ').replace(/\s+/g, ' ');
        for (const m of flat.matchAll(/docs\/performance\.md[,;:]? ((?:"[^"]+"(?:,| and| or)? ?)+)/g)) {
          for (const h of m[1]!.matchAll(/"([^"]+)"/g)) refs.push({ where: relative(ROOT, file), heading: h[1]! });
        }
      }
    }
  }
  return refs;
}
