/**
 * The reusable parts of the OpenAPI document (`components`): the shared records, the error answers
 * with their bodies restricted to the codes each status can carry, the answer headers and the
 * API key scheme. Operations refer to them by `$ref`.
 */
import { toJsonSchemaDefs, type JsonSchema } from '@valibot/to-json-schema';
import { API_VERSION } from './answer-headers.ts';
import type { ErrorCode } from './errors.ts';
import { convert } from './openapi-convert.ts';
import { RESPONSE_DEFINITIONS } from './response-schemas/definitions.ts';
import { errorBodyOf } from './response-schemas/error-body.ts';

type Json = Record<string, unknown>;

/** The name of the API key scheme operations require. */
export const SECURITY_SCHEME = 'ApiKey';

/** The error answers: status → [component name, description, codes the body can carry]. */
export const ERROR_RESPONSES: Record<number, [string, string, ErrorCode[]]> = {
  400: [
    'BadRequest',
    'Bad request: an invalid or unknown query parameter (`param` names it), or a window that is too large.',
    ['invalid_parameter', 'unknown_parameter', 'window_too_large', 'bad_request'],
  ],
  401: ['Unauthorized', 'No x-api-key header, or an unknown or revoked key.', ['unauthorized']],
  404: ['NotFound', 'No such account or position (a malformed path parameter is also a 404).', ['not_found']],
  405: ['MethodNotAllowed', 'Any method but GET (answered with Allow: GET).', ['method_not_allowed']],
  429: ['TooManyRequests', 'Rate limit or monthly credits exhausted; retry after Retry-After seconds.', ['rate_limited', 'credits_exhausted']],
  500: ['InternalError', 'Internal error; logged under the x-request-id.', ['internal_error']],
};

/** The headers of every answer. */
export const COMMON_HEADERS = {
  'x-request-id': { $ref: '#/components/headers/RequestId' },
  'x-api-version': { $ref: '#/components/headers/ApiVersion' },
};

/** The limit headers of every authenticated answer of a metered plan (contract: keys, plans, limits). */
export const LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
  'X-Credits-Remaining': { $ref: '#/components/headers/CreditsRemaining' },
};

/** The document's `components`. */
export function components(): Json {
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
        description: "Request id: the client's x-request-id when it is 8-128 of [A-Za-z0-9._:-], else a fresh UUID. The server log has every failure under it.",
        schema: { type: 'string' },
      },
      ApiVersion: { description: 'Interface version.', schema: { type: 'string', const: API_VERSION } },
      RateLimitLimit: {
        description: "Requests per minute the key's plan allows (a sliding 60-second window). Absent for the unmetered internal plan.",
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
        description: "Credits left this UTC month for the key's account, after this request (1 per current-state request, 5 per history or search request, 0 for a 4xx). Absent for the internal plan.",
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
