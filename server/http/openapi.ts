/**
 * The OpenAPI 3.1 document of every REST endpoint (`GET /v1/openapi.json`, contract §1), generated
 * from the route list (server/main/app.ts `restRoutes`, passed in) and the same valibot schemas that validate requests and
 * describe responses: no hand-kept copy.
 *
 * Per route:
 * - path: h3 `:param` segments become `{param}`, each declared as a required path parameter
 *   (`address`: string, `id`: integer position id, anything else: string);
 * - one GET operation with the route's summary, an `operationId` derived from the path and a tag
 *   from its first segment after `/v1` (alpha, beta, protocols, …);
 * - query parameters: the route's strict query schema converted with `@valibot/to-json-schema`
 *   (`typeMode: 'input'`: conversion stops at the first transform, see params.ts), one parameter per
 *   property, required when not optional, its `description` hoisted onto the parameter;
 * - security: the `x-api-key` header scheme on every route with `auth !== false`, none otherwise;
 * - responses: 200 with the route's `response` schema (shared records as `$ref`s to
 *   `components/schemas`, from response-schemas.ts), and the contract's error answers, each with the
 *   error body restricted to the codes that status can carry:
 *   400 when the route takes query parameters, 401 and 429 when it needs a key, 404 when it has
 *   path parameters, 500 always. 405 (any method but GET) cannot answer a GET operation, so it is a
 *   reusable `components/responses/MethodNotAllowed` and is explained in `info.description`.
 *
 * The document is built once per service and frozen.
 */
import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { API_VERSION } from './answer-headers.ts';
import type { ErrorCode } from './errors.ts';
import { addNonRestOperations } from './openapi-extra.ts';
import { RESPONSE_DEFINITIONS } from './response-schemas/definitions.ts';
import { errorBodyOf } from './response-schemas/error-body.ts';
import { csvColumns, csvMediaType } from './csv.ts';
import { RESPONSE_EXAMPLES } from './openapi-examples.ts';
import { DEPTH_WORDS, depthByPlan, planDepthOf } from './plan-depth.ts';
import type { RestRoute } from './routes/define.ts';
import type { Service } from '../service.ts';

type Json = Record<string, unknown>;

/** Path of the document itself. */
export const OPENAPI_PATH = '/v1/openapi.json';

const SECURITY_SCHEME = 'ApiKey';

/** Converter settings shared by every conversion: JSON Schema 2020-12 (= OpenAPI 3.1), refs into components. */
const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'throw',
  definitions: RESPONSE_DEFINITIONS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/**
 * A valibot schema as JSON Schema 2020-12 (input side, shared records as `$ref`s into
 * components), without the keys that only make sense at a document root. Also builds the MCP
 * tool input schemas (server/mcp/tool-schema.ts) from the same query schemas.
 */
export function convert(schema: v.GenericSchema): Json {
  const json = toJsonSchema(schema, CONVERSION) as Json;
  delete json.$schema;
  delete json.$defs;
  return json;
}

/** The error answers: status → [component name, description, codes the body can carry]. */
const ERROR_RESPONSES: Record<number, [string, string, ErrorCode[]]> = {
  400: ['BadRequest', 'Bad request: an invalid or unknown query parameter (`param` names it), or a window that is too large.',
    ['invalid_parameter', 'unknown_parameter', 'window_too_large', 'bad_request']],
  401: ['Unauthorized', 'No x-api-key header, or an unknown or revoked key.', ['unauthorized']],
  404: ['NotFound', 'No such account or position (a malformed path parameter is also a 404).', ['not_found']],
  405: ['MethodNotAllowed', 'Any method but GET (answered with Allow: GET).', ['method_not_allowed']],
  429: ['TooManyRequests', 'Rate limit or monthly credits exhausted; retry after Retry-After seconds.',
    ['rate_limited', 'credits_exhausted']],
  500: ['InternalError', 'Internal error; logged under the x-request-id.', ['internal_error']],
};

/** Known path parameters (anything else: a plain string). */
const PATH_PARAMETERS: Record<string, { description: string; schema: Json }> = {
  address: { description: 'Base58 wallet address (a malformed or unknown one is a 404).', schema: { type: 'string' } },
  id: { description: 'Integer position_id of one lifecycle (a malformed or unknown one is a 404).', schema: { type: 'integer', minimum: 0 } },
};

const COMMON_HEADERS = {
  'x-request-id': { $ref: '#/components/headers/RequestId' },
  'x-api-version': { $ref: '#/components/headers/ApiVersion' },
};

/** The limit headers of every authenticated answer of a metered plan (contract: keys, plans, limits). */
const LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
  'X-Credits-Remaining': { $ref: '#/components/headers/CreditsRemaining' },
};

/** One line per tag, for the reference's sections (a tag without one gets none). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  'openapi.json': 'This document (no key needed).',
  protocols: 'The tracked protocols and cross-protocol aggregates.',
  alpha: 'GMX-Solana (GMTrade): markets, open interest, funding, volume, liquidations, accounts and positions.',
  beta: 'Jupiter Perps: markets and market stats.',
  stream: 'The live WebSocket feed of fills.',
  mcp: 'Model Context Protocol endpoint for AI agents.',
};

/** `/v1/alpha/accounts/:address` → `{ path: '/v1/alpha/accounts/{address}', params: ['address'] }`. */
export function openApiPath(h3Path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const path = h3Path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      params.push(name);
      return `{${name}}`;
    })
    .join('/');
  return { path, params };
}

function operationIdOf(h3Path: string): string {
  const words = h3Path
    .replace(/^\/v1\//, '')
    .split(/[^A-Za-z0-9:]+/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by_${w.slice(1)}` : w));
  return ['get', ...words].join('_');
}

function tagOf(h3Path: string): string {
  return h3Path.split('/')[2] ?? 'meta';
}

/** Query parameters of a route, from its strict valibot query schema. */
function queryParameters(route: RestRoute): Json[] {
  const json = convert(route.query);
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...schema } = property;
    const parameter: Json = { name, in: 'query', required: required.has(name), schema };
    if (typeof description === 'string') parameter.description = description;
    return parameter;
  });
}

function operationOf(route: RestRoute): { path: string; operation: Json } {
  const { path, params } = openApiPath(route.path);
  const parameters: Json[] = params.map((name) => ({
    name,
    in: 'path',
    required: true,
    ...(PATH_PARAMETERS[name] ?? { description: `Path parameter ${name}.`, schema: { type: 'string' } }),
  }));
  const query = queryParameters(route);
  parameters.push(...query);
  const needsKey = route.auth !== false;

  const ok: Json = { description: 'OK', headers: needsKey ? { ...COMMON_HEADERS, ...LIMIT_HEADERS } : COMMON_HEADERS };
  if (route.response) {
    const media: Json = { schema: convert(route.response) };
    const example = RESPONSE_EXAMPLES[route.path];
    if (example !== undefined) media.example = example;
    ok.content = { 'application/json': media };
  }
  const columns = csvColumns(route);
  if (columns && ok.content) (ok.content as Json)['text/csv'] = csvMediaType(columns);
  const responses: Json = { 200: ok };
  const statuses = [
    ...(query.length > 0 ? [400] : []),
    ...(needsKey ? [401] : []),
    ...(params.length > 0 ? [404] : []),
    ...(needsKey ? [429] : []),
    500,
  ];
  for (const status of statuses) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]![0]}` };

  const depth = planDepthOf(route);
  const notes = needsKey
    ? [`Costs ${route.cost} credit${route.cost === 1 ? '' : 's'} per successful answer (a 4xx costs nothing).`]
    : ['No key needed; no credits.'];
  if (depth) notes.push(`The window is clamped to the plan's ${DEPTH_WORDS[depth]}: ${depthByPlan(depth)}.`);
  const operation: Json = {
    operationId: operationIdOf(route.path),
    summary: route.summary,
    description: notes.join(' '),
    tags: [tagOf(route.path)],
    security: needsKey ? [{ [SECURITY_SCHEME]: [] }] : [],
    responses,
  };
  if (parameters.length > 0) operation.parameters = parameters;
  return { path, operation };
}

function components(): Json {
  const schemas: Record<string, unknown> = {};
  const defs = toJsonSchemaDefs(RESPONSE_DEFINITIONS, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'throw',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  }) as Record<string, JsonSchema>;
  for (const [name, schema] of Object.entries(defs)) {
    const { $schema: _s, ...rest } = schema as Json;
    schemas[name] = rest;
  }
  const responses: Json = {};
  for (const [status, [name, description, codes]] of Object.entries(ERROR_RESPONSES)) {
    const errorSchema = `Error${status}`;
    schemas[errorSchema] = convert(errorBodyOf(codes));
    // a 401 and a 405 are answered before the key is admitted: no limit headers
    const headers: Json = status === '401' || status === '405' ? { ...COMMON_HEADERS } : { ...COMMON_HEADERS, ...LIMIT_HEADERS };
    if (status === '405') headers.allow = { description: 'Always GET.', schema: { type: 'string', const: 'GET' } };
    if (status === '429') headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    responses[name] = {
      description,
      headers,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchema}` } } },
    };
  }
  return {
    schemas,
    responses,
    headers: {
      RequestId: {
        description: 'Request id: the client\'s x-request-id when it is 8-128 of [A-Za-z0-9._:-], else a fresh UUID. The server log has every failure under it.',
        schema: { type: 'string' },
      },
      ApiVersion: { description: 'Interface version.', schema: { type: 'string', const: API_VERSION } },
      RateLimitLimit: {
        description: 'Requests per minute the key\'s plan allows (a sliding 60-second window). Absent for the unmetered internal plan.',
        schema: { type: 'integer', minimum: 1 },
      },
      RateLimitRemaining: {
        description: 'Requests left in the current 60-second window, after this one. Absent for the internal plan.',
        schema: { type: 'integer', minimum: 0 },
      },
      RateLimitReset: {
        description: 'Seconds until the oldest request of the window leaves it, i.e. until RateLimit-Remaining next grows. Absent for the internal plan.',
        schema: { type: 'integer', minimum: 0 },
      },
      CreditsRemaining: {
        description: 'Credits left this UTC month for the key\'s account, after this request (1 per current-state request, 5 per history or search request, 0 for a 4xx). Absent for the internal plan.',
        schema: { type: 'integer', minimum: 0 },
      },
      RetryAfter: {
        description: 'Seconds to wait: until the oldest request leaves the window (rate_limited), or until the next UTC month (credits_exhausted).',
        schema: { type: 'integer', minimum: 0 },
      },
    },
    securitySchemes: {
      [SECURITY_SCHEME]: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API key (never accepted in the query string).' },
    },
  };
}

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
    simulated: 'SIMULATED: synthetic data from the built-in market simulator, not the chain\'s',
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
