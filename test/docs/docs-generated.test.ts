/**
 * docs/api.md and the README's generated tables are what `npm run docs:api` makes from the route
 * definitions now: a route, parameter, field or plan changed without regenerating fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../../server/docs/write-api-md.ts';
import { withRouteList } from '../../server/docs/openapi-offline.ts';
import { openApiPath } from '../../server/http/openapi-operations.ts';
import { PLAN_NAMES } from '../../server/keys/plans.ts';

describe('generated documentation', () => {
  it('is up to date (run npm run docs:api)', async () => {
    for (const [path, wanted] of await generatedDocs()) {
      expect(readFileSync(path, 'utf8'), `${path} is stale: run npm run docs:api`).toBe(wanted);
    }
  });

  it('names every route, with its cost, in docs/api.md and the README table', async () => {
    const api = readFileSync('docs/api.md', 'utf8');
    const readme = readFileSync('README.md', 'utf8');
    await withRouteList((routes) => {
      for (const route of routes) {
        const path = openApiPath(route.path).path;
        expect(api).toContain(`### GET ${path}\n`);
        const row = readme.split('\n').find((line) => line.startsWith(`| [\`GET ${path}\`]`));
        expect(row, path).toBeDefined();
        expect(row!.split(' | ')[2], path).toMatch(new RegExp(`^${route.cost}\\b`));
      }
    });
    for (const plan of PLAN_NAMES) expect(readme).toMatch(new RegExp(`^\\| ${plan} \\|`, 'm'));
  });
});
