/**
 * `/v1/mcp` (contract §8): MCP over streamable HTTP, stateless, inside the h3 app.
 *
 * Per HTTP request, before any MCP exchange: method (POST only; anything else is a 405
 * `method_not_allowed` with `Allow: POST`: stateless mode has no server-initiated GET stream and no
 * session to DELETE, and the SDK's client treats a 405 on GET as "no stream", as the SDK's own
 * stateless examples answer) → `x-api-key` authentication (401, server/http/auth.ts) → plan gate
 * (403 `plan_required` unless the plan has `mcp: true`: pro, premium, internal). Then a fresh
 * low-level SDK `Server` and a `WebStandardStreamableHTTPServerTransport` (no session id, JSON
 * answers rather than SSE: no tool streams progress) handle the request and are closed.
 *
 * The exchange itself (initialize, tools/list, notifications) is neither rate-limited nor metered:
 * it reads no data. Each tool call is: REST-wrapping tools run as their REST request through the
 * app (call-rest.ts: same rate limit, credits, validation, handler); describe_service is admitted
 * at cost 0 (counts against the rate limit). The limit headers of the last tool call are copied
 * onto the HTTP answer, and every tool result carries them in `_meta`.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { H3, H3Event } from 'h3';
import { authenticate } from '../http/auth.ts';
import { API_VERSION, requestIdOf, stagedHeaders, stageHeader, withAnswerHeaders } from '../http/answer-headers.ts';
import { ApiError } from '../http/errors.ts';
import type { RestRoute } from '../http/routes/define.ts';
import { getPlan } from '../keys/plans.ts';
import type { ApiKeyRecord, KeyStore } from '../keys/store.ts';
import { admit, type Limits } from '../limits/gate.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';
import { callRestTool } from './call-rest.ts';
import { describeServiceResult } from './describe.ts';
import { apiErrorResult, toolErrorResult } from './results.ts';
import { DESCRIBE_SERVICE, TOOL_PAGE_ROWS, compileTools, type ToolSet } from './tools.ts';
import { MCP_PATH } from '../http/mcp-path.ts';

export { MCP_PATH };

/** What the endpoint runs over. */
export interface McpDeps {
  app: H3;
  service: Service;
  keys: KeyStore;
  limits: Limits;
  routes: readonly RestRoute[];
}

const INSTRUCTIONS =
  'Read-only analytics of perpetual-futures protocols on Solana (alpha = GMX-Solana, beta = Jupiter Perps). ' +
  "Call describe_service first for markets, data coverage and your plan limits. Tool results are the REST API's JSON " +
  'bodies; the first text line summarizes them, including truncated pages (how to get the next one) and clamped windows.';

const LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-credits-remaining'];

/** The limit headers staged on `headers`, for a result's `_meta`. */
function limitMeta(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const name of LIMIT_HEADERS) {
    const value = headers[name];
    if (value !== undefined) meta[name] = value;
  }
  return meta;
}

/** describe_service: no arguments; admitted at cost 0 (rate limit and request count only). */
async function describeCall(deps: McpDeps, tools: ToolSet, event: H3Event, key: ApiKeyRecord, args: Record<string, unknown>): Promise<CallToolResult> {
  const extra = Object.keys(args).find((k) => args[k] !== undefined && args[k] !== null);
  if (extra !== undefined) {
    const message = `Unknown argument '${extra}': describe_service takes none.`;
    return toolErrorResult({ error: { code: 'unknown_parameter', message, param: extra } });
  }
  admit(event, key, 0, deps.limits);
  const result = await describeServiceResult(deps.service, {
    plan: key.plan,
    creditsRemaining: deps.limits.credits.remaining(key.account, getPlan(key.plan)),
    costs: tools.costs,
  });
  return { ...result, _meta: limitMeta(stagedHeaders(event)) };
}

/** The MCP server of one HTTP request, for one authenticated key. */
function requestServer(deps: McpDeps, tools: ToolSet, event: H3Event, key: ApiKeyRecord, apiKey: string): Server {
  const server = new Server({ name: 'perps-analytics', title: 'Perpetuals Analytics Data Service', version: API_VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.list }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    try {
      if (name === DESCRIBE_SERVICE) return await describeCall(deps, tools, event, key, args);
      const tool = tools.rest.get(name);
      if (!tool) return toolErrorResult({ error: { code: 'not_found', message: `No tool named '${name}'; tools/list names them.` } });
      const result = await callRestTool(tool, args, {
        fetch: (req) => Promise.resolve(deps.app.fetch(req)),
        apiKey,
        requestId: requestIdOf(event),
        plan: key.plan,
        now: () => deps.service.now(),
        pageRows: tools.paged.has(name) ? (tool.pageRows ?? TOOL_PAGE_ROWS) : undefined,
      });
      // The HTTP answer carries the limit headers of its (last) tool call, as a REST answer would.
      const meta = (result._meta ?? {}) as Record<string, string>;
      for (const header of LIMIT_HEADERS) if (meta[header] !== undefined) stageHeader(event, header, meta[header]);
      return result;
    } catch (err) {
      if (!(err instanceof ApiError)) log.error(`[${requestIdOf(event)}] MCP tool ${name} failed:`, err);
      return apiErrorResult(err);
    }
  });
  return server;
}

/** Mounts `/v1/mcp` on the app. Call after the REST routes (it calls them through `app.fetch`). */
export function mountMcp(deps: McpDeps): void {
  const tools = compileTools(deps.routes);
  deps.app.all(MCP_PATH, async (event) => {
    if (event.req.method !== 'POST') {
      throw new ApiError(405, 'method_not_allowed', 'Only POST is supported on /v1/mcp: it is stateless streamable HTTP (no GET event stream, no session to DELETE).', undefined, { allow: 'POST' });
    }
    const key = authenticate(event, deps.keys);
    if (!getPlan(key.plan).mcp) {
      throw new ApiError(403, 'plan_required', `MCP needs the pro or premium plan; this key's plan is ${key.plan}.`);
    }
    const apiKey = (event.req.headers.get('x-api-key') ?? '').trim();
    const server = requestServer(deps, tools, event, key, apiKey);
    // Tool arguments are small: 1 MiB is plenty (the SDK's default is 4 MiB).
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: 1 << 20,
    });
    await server.connect(transport);
    try {
      const answer = await transport.handleRequest(event.req as Request);
      return withAnswerHeaders(event, answer); // after the tool calls staged their limit headers
    } finally {
      await server.close();
    }
  });
}
