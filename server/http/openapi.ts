/**
 * The OpenAPI 3.1 document of every REST endpoint (`GET /v1/openapi.json`, contract §1), generated
 * from the route list (server/main/app.ts `restRoutes`, passed in) and the same valibot schemas that
 * validate requests and describe responses: no hand-kept copy. Each route's operation is built by
 * server/http/openapi-operations.ts, the shared parts by server/http/openapi-components.ts.
 *
 * The document is built once per service and frozen.
 */
import { API_VERSION } from './answer-headers.ts';
import { addNonRestOperations } from './openapi-extra.ts';
import { convert } from './openapi-convert.ts';
import { components } from './openapi-components.ts';
import { operationOf, tagOf } from './openapi-operations.ts';
import type { RestRoute } from './routes/define.ts';
import type { Service } from '../service.ts';

type Json = Record<string, unknown>;

/** Path of the document itself. */
export const OPENAPI_PATH = '/v1/openapi.json';

/** One line per tag, for the reference's sections (a tag without one gets none). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'openapi.json': 'This document (no key needed).',
  protocols: 'The tracked protocols and cross-protocol aggregates.',
  alpha: 'GMX-Solana (GMTrade): markets, open interest, funding, volume, liquidations, accounts and positions.',
  beta: 'Jupiter Perps: markets and market stats.',
  stream: 'The live WebSocket feed of fills.',
  mcp: 'Model Context Protocol endpoint for AI agents.',
};

/** Builds the OpenAPI 3.1 document of `routes`, plus the stream and MCP endpoints (not cached:
 * see {@link openApiDocument}). */
export function buildOpenApiDocument(routes: readonly RestRoute[], dataSource?: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const { path, operation } = operationOf(route);
    if (paths[path]) throw new Error(`OpenAPI: two routes on ${path}`);
    paths[path] = { get: operation };
  }
  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Perpetuals Analytics Data Service',
      version: API_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description: [
        'Read-only analytics for perpetual-futures protocols on Solana. Every REST endpoint is a GET;',
        'any other method gets 405 `method_not_allowed` with `Allow: GET`. Unknown query parameters are a',
        '400 `unknown_parameter` on every endpoint. Errors are `{ error: { code, message, param? } }`.',
        'Timestamps are UTC with milliseconds; USD amounts are rounded to 6 decimals.',
        ...(dataSource === undefined ? [] : [dataSourceSentence(dataSource)]),
      ].join(' '),
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    tags: [...new Set(routes.map((r) => tagOf(r.path)))].map(tagObject),
    paths,
    components: components(),
  };
  addNonRestOperations(doc, convert, tagObject);
  return doc;
}

/** The description's provenance sentence: which source feeds this deployment's data. */
export function dataSourceSentence(source: string): string {
  const what: Record<string, string> = {
    simulated: "SIMULATED: synthetic data from the built-in market simulator, not the chain's",
    solana: 'solana: indexed from the Solana chain',
    replay: 'replay: a copy of a journal replayed, as recorded by its source',
    none: 'none: no source is feeding it (the data is whatever the journal holds)',
  };
  return `Data source of this deployment: ${what[source] ?? source}; every answer names it in the X-Data-Source header.`;
}

/** A tag with its description when it has one. */
export function tagObject(name: string): Json {
  const description = TAG_DESCRIPTIONS[name];
  return description === undefined ? { name } : { name, description };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

const cache = new WeakMap<Service, Json>();

/**
 * The document of the service's REST routes, built on first use and then reused (frozen). The
 * routes come as an argument: the route list includes the route serving this document.
 */
export function openApiDocument(service: Service, routes: () => readonly RestRoute[]): Json {
  let doc = cache.get(service);
  if (!doc) {
    doc = deepFreeze(buildOpenApiDocument(routes(), service.source.dataSource()));
    cache.set(service, doc);
  }
  return doc;
}
