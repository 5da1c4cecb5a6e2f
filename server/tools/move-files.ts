/**
 * Moves files with `git mv` and makes every reference follow: relative string literals in
 * TypeScript (imports, dynamic imports, `vi.mock`, `new URL(…, import.meta.url)`) are recomputed
 * from each file's new place, and repository paths written out in any tracked text file
 * (`server/http/cache.ts` in a comment, a script or a document) are replaced.
 *
 *   node --import tsx server/tools/move-files.ts moves.tsv          # move, then rewrite
 *   node --import tsx server/tools/move-files.ts moves.tsv --rewrite # rewrite only (after a merge
 *                                                                    # brought files that still
 *                                                                    # point at the old places)
 *
 * `moves.tsv` holds one `old<TAB>new` pair of repository paths per line (files, not folders).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';

const [mapFile, mode] = process.argv.slice(2);
if (!mapFile) throw new Error('usage: move-files.ts <moves.tsv> [--rewrite]');
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const moves = new Map<string, string>(
  readFileSync(mapFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => {
      const [from, to] = l.split('\t').map((s) => s.trim());
      if (!from || !to) throw new Error(`bad line: ${l}`);
      return [from, to];
    }),
);
const newPath = (p: string): string => moves.get(p) ?? p;
const oldPath = new Map([...moves].map(([a, b]) => [b, a]));

const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const isCode = (p: string) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(p);
const isText = (p: string) => isCode(p) || /\.(md|json|jsonc|sql|yml|yaml|sh|html|css)$/.test(p) || p === '.ci/run' || p.endsWith('Dockerfile');

if (mode !== '--rewrite') {
  for (const [from, to] of moves) {
    if (!existsSync(join(root, from))) throw new Error(`missing ${from}`);
    mkdirSync(dirname(join(root, to)), { recursive: true });
    execFileSync('git', ['mv', from, to], { cwd: root });
  }
}

const exists = (p: string) => existsSync(join(root, p));
const LITERAL = /(['"`])(\.\.?\/[^'"`\s$]*)\1/g;
let changed = 0;
for (const file of execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)) {
  if (!isText(file) || !exists(file) || statSync(join(root, file)).isDirectory()) continue;
  const was = oldPath.get(file) ?? file; // where the file's relative literals were written from
  let text = readFileSync(join(root, file), 'utf8');
  const before = text;
  if (isCode(file)) {
    text = text.replace(LITERAL, (whole, quote: string, spec: string) => {
      const target = posix.normalize(posix.join(posix.dirname(was), spec));
      const moved = newPath(target);
      if (!exists(moved) && !tracked.includes(target)) return whole; // not a path of ours
      let rel = relative(dirname(file), moved).split('\\').join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      if (spec.endsWith('/') && !rel.endsWith('/')) rel += '/';
      return `${quote}${rel}${quote}`;
    });
  }
  for (const [from, to] of moves) {
    if (text.includes(from)) text = text.replace(new RegExp(`(?<![\\w/.-])${from.replace(/[.]/g, '[.]')}(?![\\w-])`, 'g'), to);
  }
  if (text !== before) {
    writeFileSync(join(root, file), text);
    changed += 1;
  }
}
console.log(`${moves.size} moves, ${changed} files rewritten`);
