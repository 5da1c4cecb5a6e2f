/**
 * One operation of the OpenAPI document per REST route:
 * - path: h3 `:param` segments become `{param}`, each declared as a required path parameter
 *   (`address`: string, `id`: integer position id, anything else: string);
 * - one GET operation with the route's summary, an `operationId` derived from the path and a tag
 *   from its first segment after `/v1` (alpha, beta, protocols, …);
 * - query parameters: the route's strict query schema converted with `@valibot/to-json-schema`
 *   (`typeMode: 'input'`: conversion stops at the first transform, see params.ts), one parameter per
 *   property, required when not optional, its `description` hoisted onto the parameter;
 * - security: the `x-api-key` header scheme on every route with `auth !== false`, none otherwise;
 * - responses: 200 with the route's `response` schema (shared records as `$ref`s to
 *   `components/schemas`, from server/http/response-schemas/), and the contract's error answers
 *   (server/http/openapi-components.ts), each with the error body restricted to the codes that status can carry:
 *   400 when the route takes query parameters, 401 and 429 when it needs a key, 404 when it has
 *   path parameters, 500 always. 405 (any method but GET) cannot answer a GET operation, so it is a
 *   reusable `components/responses/MethodNotAllowed` and is explained in `info.description`.
 */
import type { RestRoute } from './routes/define.ts';
import { csvColumns, csvMediaType } from './csv.ts';
import { RESPONSE_EXAMPLES } from './openapi-examples.ts';
import { DEPTH_WORDS, depthByPlan, planDepthOf } from './plan-depth.ts';
import { convert } from './openapi-convert.ts';
import { COMMON_HEADERS, ERROR_RESPONSES, LIMIT_HEADERS, SECURITY_SCHEME } from './openapi-components.ts';

type Json = Record<string, unknown>;

/** Known path parameters (anything else: a plain string). */
const PATH_PARAMETERS: Record<string, { description: string; schema: Json }> = {
  address: { description: 'Base58 wallet address (a malformed or unknown one is a 404).', schema: { type: 'string' } },
  id: { description: 'Integer position_id of one lifecycle (a malformed or unknown one is a 404).', schema: { type: 'integer', minimum: 0 } },
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

/** `/v1/alpha/accounts/:address` → `get_alpha_accounts_by_address`. */
function operationIdOf(h3Path: string): string {
  const words = h3Path
    .replace(/^\/v1\//, '')
    .split(/[^A-Za-z0-9:]+/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by_${w.slice(1)}` : w));
  return ['get', ...words].join('_');
}

/** The operation's tag: the first path segment after `/v1` (alpha, beta, protocols, …). */
export function tagOf(h3Path: string): string {
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

/** The GET operation of `route` under its OpenAPI path. */
export function operationOf(route: RestRoute): { path: string; operation: Json } {
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
  const statuses = [...(query.length > 0 ? [400] : []), ...(needsKey ? [401] : []), ...(params.length > 0 ? [404] : []), ...(needsKey ? [429] : []), 500];
  for (const status of statuses) responses[status] = { $ref: `#/components/responses/${ERROR_RESPONSES[status]![0]}` };

  const depth = planDepthOf(route);
  const notes = needsKey ? [`Costs ${route.cost} credit${route.cost === 1 ? '' : 's'} per successful answer (a 4xx costs nothing).`] : ['No key needed; no credits.'];
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
