/**
 * The two endpoints of the spec that are not REST routes, as OpenAPI operations, so that the
 * document lists all 23 (spec "Endpoints"):
 *
 * - 22 `GET /v1/stream/{protocol}/fills`: documented as its plain GET (the scope echo, with the
 *   same query schema the socket uses, server/stream/scope.ts) plus a `101` answer describing the
 *   WebSocket upgrade, its frames and close codes (contract §7). OpenAPI has no WebSocket model,
 *   so the frames are described in prose and the data frame's record is referenced by name.
 * - 23 `POST /v1/mcp`: MCP over streamable HTTP (contract §8), a JSON-RPC body in and out.
 *
 * Their error answers reuse the document's `components/responses`; the stream adds 400 / 404 of
 * a bad scope, MCP the 403 `plan_required` (its own component, added here).
 */
import * as v from 'valibot';
import { MCP_PATH } from './mcp-path.ts';
import { STREAM_PATH, TICKETS_PATH } from '../stream/route.ts';
import { STREAM_PROTOCOL, TICKET_TTL_MS } from '../stream/tickets.ts';
import { streamQuery } from '../stream/scope.ts';
import { errorBodyOf } from './response-schemas/error-body.ts';
import { PositionEvent } from './routes/positions.ts';

type Json = Record<string, unknown>;
type Convert = (schema: v.GenericSchema) => Json;

/** The record of a data frame `{ "data": StreamFill }` (server/stream/fill-json.ts builds it, in this order). */
export const StreamFill = v.strictObject({
  seq: v.pipe(v.number(), v.integer(), v.description('Journal sequence number: global across protocols, gap-free; pass as since_seq to resume after it.')),
  protocol: v.pipe(v.picklist(['alpha', 'beta']), v.description('Protocol of the fill.')),
  position_id: v.pipe(v.number(), v.integer(), v.description('Lifecycle id (see /v1/alpha/positions/{address}/{id} for alpha).')),
  address: v.pipe(v.string(), v.description('Owner wallet (base58).')),
  market: v.pipe(v.string(), v.description('Grouped market symbol <INDEX>-PERP.')),
  market_variant: v.pipe(v.nullable(v.string()), v.description('Protocol-native variant id; null on beta.')),
  side: v.pipe(v.picklist(['long', 'short']), v.description('long or short.')),
  ...PositionEvent.entries,
});

/** The plain GET's answer: the resolved scope (server/stream/scope.ts `scopeEcho`). */
const scopeEchoSchema = v.strictObject({
  data: v.pipe(
    v.strictObject({
      protocol: v.pipe(v.picklist(['alpha', 'beta']), v.description('Protocol of the stream.')),
      market: v.pipe(v.nullable(v.string()), v.description('Grouped market symbol, or null for every market.')),
      address: v.pipe(v.nullable(v.string()), v.description('Owner address, or null for every address.')),
      market_variants: v.pipe(v.array(v.string()), v.description('The alpha market variants the scope covers, sorted; [] for beta.')),
    }),
    v.description('The resolved scope of the URL.'),
  ),
});

const STREAM_DESCRIPTION = [
  'Read-only WebSocket feed of position-lifecycle fills in journal order. Open it with `Upgrade: websocket` and the',
  '`x-api-key` header (premium plan). Each data frame is `{ "data": StreamFill }` (see components/schemas/StreamFill):',
  "the PositionEvent record plus its journal `seq`, protocol, position_id, address, market, market_variant and side. `since_seq` replays the scope's fills after that seq (at most 24 h back) before the live ones, with no gap",
  'and no duplicate. Error frames `{ "error": { code, message } }` precede a close: `plan_required` (1008),',
  '`too_many_connections` (1013, 50 per account), `invalid_scope` (1008), `slow_consumer` (1013, names the seq to',
  'resume from), `internal_error` (1011); a shutdown closes with 1001. The server pings every 30 s and drops a peer',
  'silent for 60 s. A plain GET (no upgrade) answers the resolved scope, or the 400 / 404 the socket would report;',
  'it is rate-limited and costs no credits.',
].join(' ');

const MCP_DESCRIPTION = [
  'Model Context Protocol over streamable HTTP, stateless (no session id; every POST carries one JSON-RPC message or',
  'batch and gets a JSON answer). Plans pro, premium and internal. Tools mirror the REST data endpoints (alpha and beta',
  "twins joined under a `protocol` argument) plus `describe_service`; a tool call is its REST request with the caller's",
  'key: the same rate limit, credits, validation and answers (`structuredContent` = the REST body). Any method but',
  'POST is a 405 with `Allow: POST`.',
].join(' ');

/** The request id and limit headers of an authenticated answer, as references to the document's header components. */
const LIMIT_HEADER_REFS: Json = Object.fromEntries(
  [
    ['x-request-id', 'RequestId'],
    ['RateLimit-Limit', 'RateLimitLimit'],
    ['RateLimit-Remaining', 'RateLimitRemaining'],
    ['RateLimit-Reset', 'RateLimitReset'],
    ['X-Credits-Remaining', 'CreditsRemaining'],
  ].map(([header, component]) => [header, { $ref: `#/components/headers/${component}` }]),
);

/** Path item of the stream (`GET /v1/stream/{protocol}/fills`). */
function streamPathItem(convert: Convert): Json {
  const query = convert(streamQuery);
  const properties = (query.properties ?? {}) as Record<string, Json>;
  const parameters: Json[] = [
    { name: 'protocol', in: 'path', required: true, description: 'alpha or beta (anything else is a 404).', schema: { type: 'string', enum: ['alpha', 'beta'] } },
    ...Object.entries(properties).map(([name, { description, ...schema }]) => ({ name, in: 'query', required: false, schema, ...(typeof description === 'string' ? { description } : {}) })),
  ];
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  return {
    get: {
      operationId: 'get_stream_by_protocol_fills',
      summary: 'Live fills (WebSocket); a plain GET echoes the resolved scope',
      description: STREAM_DESCRIPTION,
      tags: ['stream'],
      security: [{ ApiKey: [] }],
      parameters,
      responses: {
        101: { description: 'Switching Protocols: the WebSocket feed (frames described above).' },
        200: {
          description: 'The resolved scope (plain GET; rate-limited, no credits).',
          headers: LIMIT_HEADER_REFS,
          content: { 'application/json': { schema: convert(scopeEchoSchema) } },
        },
        400: ref('BadRequest'),
        401: ref('Unauthorized'),
        404: ref('NotFound'),
        429: ref('TooManyRequests'),
        500: ref('InternalError'),
      },
    },
  };
}

/** Path item of MCP (`POST /v1/mcp`). */
function mcpPathItem(): Json {
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const jsonRpc = { type: 'object', description: 'A JSON-RPC 2.0 message (or an array of them) of the MCP protocol.' };
  return {
    post: {
      operationId: 'post_mcp',
      summary: 'MCP endpoint (streamable HTTP, stateless)',
      description: MCP_DESCRIPTION,
      tags: ['mcp'],
      security: [{ ApiKey: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: jsonRpc } } },
      responses: {
        200: {
          description: 'The JSON-RPC answer; a tool call carries the limit headers of its REST twin.',
          headers: LIMIT_HEADER_REFS,
          content: { 'application/json': { schema: jsonRpc } },
        },
        202: { description: 'Accepted (a notification or a response: nothing to answer).' },
        401: ref('Unauthorized'),
        403: ref('PlanRequired'),
        500: ref('InternalError'),
      },
    },
  };
}

/** Path item of the stream tickets (`POST /v1/stream/tickets`): how a browser opens the stream without its key in the URL. */
function ticketsPathItem(): Json {
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const ticket = {
    type: 'object',
    description: 'A single-use stream ticket.',
    required: ['ticket', 'expires_at', 'protocol'],
    additionalProperties: false,
    properties: {
      ticket: { type: 'string', description: `Offer it as the WebSocket subprotocol \`ticket.<ticket>\`, beside \`${STREAM_PROTOCOL}\`; good for one socket.` },
      expires_at: { type: 'string', format: 'date-time', description: `When the ticket lapses if unused (UTC; ${TICKET_TTL_MS / 1000} s after it was issued).` },
      protocol: { type: 'string', description: 'The subprotocol the service speaks, to offer with the ticket.' },
    },
  };
  return {
    post: {
      operationId: 'post_stream_ticket',
      summary: 'A single-use ticket to open the fills stream from a browser',
      description:
        'A browser cannot set `x-api-key` on a WebSocket: it asks for a ticket with its key in the header, then opens the stream offering `' +
        STREAM_PROTOCOL +
        '` and `ticket.<ticket>` as subprotocols. The ticket is bound to the key, valid ' +
        TICKET_TTL_MS / 1000 +
        ' s and for one socket; a key revoked meanwhile fails. Rate-limited; costs no credit. Any method but POST is a 405 with `Allow: POST`.',
      tags: ['stream'],
      security: [{ ApiKey: [] }],
      responses: {
        201: {
          description: 'The ticket (never cached).',
          headers: LIMIT_HEADER_REFS,
          content: { 'application/json': { schema: { type: 'object', description: 'The ticket under `data`.', required: ['data'], additionalProperties: false, properties: { data: ticket } } } },
        },
        401: ref('Unauthorized'),
        403: ref('PlanRequired'),
        429: ref('TooManyRequests'),
        500: ref('InternalError'),
      },
    },
  };
}

/**
 * Adds the stream, its tickets and MCP to a document built from the REST routes: their paths, tags and the
 * `PlanRequired` response component. `convert` is the document's valibot → JSON Schema converter,
 * `tagObject` its tag builder (both passed in: this module is imported by server/http/openapi.ts).
 */
export function addNonRestOperations(doc: Json, convert: Convert, tagObject: (name: string) => Json): void {
  const paths = doc.paths as Record<string, Json>;
  const streamPath = STREAM_PATH.replace(':protocol', '{protocol}');
  if (paths[streamPath] || paths[MCP_PATH]) throw new Error('OpenAPI: a REST route shadows the stream or MCP path');
  paths[streamPath] = streamPathItem(convert);
  paths[MCP_PATH] = mcpPathItem();
  paths[TICKETS_PATH] = ticketsPathItem();
  (doc.tags as Json[]).push(tagObject('stream'), tagObject('mcp'));
  const components = doc.components as { schemas: Json; responses: Json };
  components.schemas.Error403 = convert(errorBodyOf(['plan_required']));
  components.schemas.StreamFill = convert(StreamFill);
  components.responses.PlanRequired = {
    description: "The key's plan does not include this endpoint (MCP: pro, premium or internal).",
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error403' } } },
  };
}
