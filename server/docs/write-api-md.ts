/**
 * `npm run docs:api`: writes docs/api.md and the README's generated tables (between their
 * `<!-- generated:NAME -->` markers) from the route definitions. `--check` writes nothing and exits
 * 1 when a file is stale (test/docs/docs-generated.test.ts runs the same comparison).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withRouteList } from './openapi-offline.ts';
import { apiMarkdown, endpointTable, planTable } from './api-markdown.ts';
import { anchorOf } from './markdown-schema.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The generated files: path (relative to the project root) → wanted content. */
export function generatedDocs(): Promise<Map<string, string>> {
  return withRouteList((routes, doc) => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    return new Map([
      ['docs/api.md', apiMarkdown(doc, routes)],
      [
        'README.md',
        fillBlocks(readme, {
          endpoints: endpointTable(doc, routes, (heading) => `docs/api.md#${anchorOf(heading)}`),
          plans: planTable(),
        }),
      ],
    ]);
  });
}

/** Replaces the body of each `<!-- generated:NAME (COMMAND) -->` … `<!-- /generated:NAME -->` block. */
export function fillBlocks(text: string, blocks: Record<string, string>, command = 'npm run docs:api'): string {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const open = `<!-- generated:${name} (${command}) -->`;
    const close = `<!-- /generated:${name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) throw new Error(`docs: no ${open} … ${close} block`);
    out = `${out.slice(0, start + open.length)}\n${body}\n${out.slice(end)}`;
  }
  return out;
}

/** The generated files whose committed content differs from what the code generates. */
export async function staleDocs(): Promise<string[]> {
  const wanted = await generatedDocs();
  return [...wanted]
    .filter(([path, text]) => {
      try {
        return readFileSync(join(ROOT, path), 'utf8') !== text;
      } catch {
        return true;
      }
    })
    .map(([path]) => path);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = await staleDocs();
    if (stale.length) {
      process.stderr.write(`stale: ${stale.join(', ')} (run npm run docs:api)\n`);
      process.exit(1);
    }
  } else {
    for (const [path, text] of await generatedDocs()) writeFileSync(join(ROOT, path), text);
  }
}
