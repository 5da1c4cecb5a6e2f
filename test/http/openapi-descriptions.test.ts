/**
 * The OpenAPI document as a reader's reference: every response field and every parameter has a
 * description, the limit and request-id headers are on the answers, the examples validate against
 * their schemas, and the stream's data-frame record matches what the stream sends. Runs off the
 * route list, so a route added anywhere is checked the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ajv2020Module from 'ajv/dist/2020.js';
import ajvFormatsModule from 'ajv-formats';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { fill } from '../helpers/fixtures.ts';
import { restRoutes } from '../../server/main/app.ts';
import { openApiPath } from '../../server/http/openapi-operations.ts';
import { RESPONSE_EXAMPLES } from '../../server/http/openapi-examples.ts';
import { fillRow } from '../../server/stream/fill-json.ts';

const Ajv2020 = ajv2020Module.default;
const addFormats = ajvFormatsModule.default;
type Json = Record<string, any>;

let test: TestApp;
let doc: Json;

beforeAll(async () => {
  test = await openTestApp({ now: Date.UTC(2026, 5, 2) });
  doc = await (await test.get('/v1/openapi.json', null)).json();
});
afterAll(async () => {
  await test?.close();
});

/** The schema a `$ref` names (only local component refs occur). */
function deref(schema: Json): Json {
  if (typeof schema.$ref !== 'string') return schema;
  const path = schema.$ref.replace(/^#\//, '').split('/');
  return path.reduce((node: Json, key: string) => node[key], doc);
}

/**
 * Every object property under `schema` that has no description, as `where.field`. A property that
 * is a `$ref` to a component counts as described when the component's own fields are (they are
 * walked through the components themselves).
 */
function undescribed(schema: Json, where: string, seen = new Set<Json>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  if (typeof schema.$ref === 'string') return [];
  const out: string[] = [];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    const here = `${where}.${name}`;
    if (typeof property.$ref !== 'string' && !(typeof property.description === 'string' && property.description.length > 3)) out.push(here);
    out.push(...undescribed(property, here, seen));
  }
  for (const key of ['items', 'additionalProperties'] as const) {
    if (schema[key] && typeof schema[key] === 'object') out.push(...undescribed(schema[key], `${where}[]`, seen));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const branch of (schema[key] ?? []) as Json[]) out.push(...undescribed(branch, where, seen));
  }
  return out;
}

/** Every operation of the document: [label, operation]. */
function operations(): [string, Json][] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op as Json] as [string, Json]));
}

describe('OpenAPI descriptions', () => {
  it('describes every field of every response body and component schema', () => {
    const missing: string[] = [];
    for (const [label, op] of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const schema = deref(response).content?.['application/json']?.schema;
        // the document's own 200 is the OpenAPI meta-schema, not a record of ours
        if (schema && !label.endsWith('/v1/openapi.json')) missing.push(...undescribed(schema, `${label} ${status}`));
      }
    }
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Json>)) missing.push(...undescribed(schema, name));
    expect(missing).toEqual([]);
  });

  it('describes every parameter', () => {
    const missing = operations().flatMap(([label, op]) =>
      ((op.parameters ?? []) as Json[]).filter((p) => !(typeof p.description === 'string' && p.description.length > 3)).map((p) => `${label} ${p.name}`),
    );
    expect(missing).toEqual([]);
  });

  it('puts the limit and request-id headers on every authenticated answer, and Retry-After on the 429', () => {
    for (const [label, op] of operations()) {
      if ((op.security ?? []).length === 0) continue;
      const ok = op.responses['200'] ?? op.responses['201'];
      expect(Object.keys(ok.headers ?? {}), label).toEqual(expect.arrayContaining(['x-request-id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Credits-Remaining']));
      if (label.startsWith('POST')) continue; // MCP answers limits inside a tool result, never as a 429
      const tooMany = deref(op.responses['429']);
      expect(Object.keys(tooMany.headers), label).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'X-Credits-Remaining']));
      expect(Object.keys(deref(op.responses['401']).headers), label).not.toContain('RateLimit-Limit');
    }
  });

  it('sends the limit headers the document announces', async () => {
    const res = await test.get('/v1/protocols', 'trial');
    for (const header of ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-credits-remaining']) {
      expect(res.headers.get(header), header).toMatch(/\S/);
    }
  });
});

describe('OpenAPI examples', () => {
  it('gives examples on the main endpoints, each valid against its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: 'doc' } as never);
    const paths = restRoutes(test.service).map((r) => r.path);
    const examples = Object.entries(RESPONSE_EXAMPLES);
    expect(examples.length).toBeGreaterThanOrEqual(10);
    for (const [route, example] of examples) {
      expect(paths, `example for a route that does not exist: ${route}`).toContain(route);
      const path = openApiPath(route).path;
      const media = doc.paths[path].get.responses['200'].content['application/json'];
      expect(media.example).toEqual(example);
      const pointer = `doc#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/get/responses/200/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer)!;
      expect(validate(example), `${route}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});

describe("the stream's data frame", () => {
  it('StreamFill lists exactly the fields a data frame carries, in order', () => {
    const frame = fillRow({ ...fill(), seq: 1, position_id: 1 });
    expect(Object.keys(doc.components.schemas.StreamFill.properties)).toEqual(Object.keys(frame));
  });
});
