/**
 * The documentation as a clone has it: every relative link in README.md and docs/ resolves (file
 * and heading anchor), every docs/ page is reachable from the README, the README stays a short
 * guide, and no file points outside the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorOf } from '../../server/docs/markdown-schema.ts';

const ROOT = normalize(join(import.meta.dirname, '../..'));
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text with fenced code blocks and inline code removed (links there are examples). */
function prose(text: string): string {
  return text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
}

/** Relative link targets of a Markdown page. */
function links(text: string): string[] {
  return [...prose(text).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

/** The anchors of a Markdown page's headings, as GitHub makes them (duplicates get -1, -2, …). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(m[1]!.replace(/`/g, ''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('documentation links', () => {
  it('resolves every relative link and anchor', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const target of links(text)) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const path = file === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), file));
        if (relative(ROOT, path).startsWith('..') || !existsSync(path)) {
          broken.push(`${page}: ${target}`);
          continue;
        }
        if (anchor !== undefined && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(anchor)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reaches every docs/ page from the README', () => {
    const readme = links(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]);
    const unreached = PAGES.filter((p) => p.startsWith('docs/') && !readme.includes(p));
    expect(unreached).toEqual([]);
  });

  it('keeps the README under 300 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThan(300);
  });

  it("keeps dates, issue numbers, commit hashes and endpoint numbers out of the README's prose", () => {
    const text = prose(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(text.match(/\b20\d\d-\d\d-\d\d\b|\b(?:19|20)\d\d\b/g) ?? []).toEqual([]);
    expect(text.match(/\bissues? #?\d+|#\d+\b/gi) ?? []).toEqual([]);
    expect(text.match(/\b[0-9a-f]{7,40}\b/g)?.filter((h) => /[a-f]/.test(h) && /\d/.test(h)) ?? []).toEqual([]);
    expect(text.match(/\bendpoints? \d+/gi) ?? []).toEqual([]);
  });

  it('refers to no path outside the repository', () => {
    const walk = (p: string): string[] => {
      const full = join(ROOT, p);
      if (!existsSync(full)) return [];
      if (statSync(full).isDirectory()) return readdirSync(full).flatMap((f) => walk(join(p, f)));
      return /\.(md|ts|sql|json|yaml|sh)$|^\.ci\/run$/.test(p) ? [p] : [];
    };
    const files = ['README.md', 'data/README.md', 'docs', 'server', 'sql', 'jobs', 'test', '.ci', 'package.json'].flatMap(walk);
    const outside = files.filter((f) => f !== 'test/docs/docs-links.test.ts' && /\.\.\/shared\b|\/work\/wt\//.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(outside).toEqual([]);
  });
});
