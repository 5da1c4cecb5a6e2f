/**
 * Runs one MCP tool call as the REST request it wraps, through the app itself (`app.fetch` on the
 * REST URL with the caller's key), so a tool call is exactly a REST request: same authentication,
 * plan gate, rate limit, credits reserved at the REST twin's cost and refunded on error, same query
 * validation (and its messages), same handler and clamps. The answer's JSON body becomes the
 * tool's `structuredContent` unchanged; an error body becomes a tool error (`isError`).
 *
 * Arguments → request: `protocol` (twin tools) picks the path, path parameters are substituted
 * (URL-encoded, and checked to be plain tokens so `..` or `/` cannot reach another route), every
 * other argument becomes a query parameter: strings as given, numbers and booleans stringified
 * (the REST schemas parse the wire form), `null` = omitted. Unknown arguments go through too, so
 * REST names them (`unknown_parameter`). A paged tool called without `limit` asks for a page sized
 * for a model's context (tools.ts TOOL_PAGE_ROWS) rather than REST's 500. The text of a result is a
 * one-line summary and a preview of the first rows, not the JSON again (that is structuredContent).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, type ErrorBody } from '../http/errors.ts';
import type { PlanName } from '../keys/plans.ts';
import type { RestTool } from './catalog.ts';
import { preview, summarize } from './summary.ts';
import { DEFAULT_INTERVAL, INTERVAL_MS, type HistoryInterval } from '../read/window.ts';
import { parseTimestamp } from '../http/params.ts';
import { hasProtocolArgument } from './tool-schema.ts';
import { apiErrorResult, toolErrorResult } from './results.ts';

/** What a tool call runs with: the app's fetch, the caller's raw key, plan and the service clock. */
export interface CallContext {
  fetch(request: Request): Promise<Response>;
  apiKey: string;
  /** the MCP request's id: the REST request gets `<id>.<tool>`, so logs tie the two together */
  requestId: string;
  plan: PlanName;
  now(): number;
  /** rows per page when the call gives no `limit` (tools whose route pages by limit; else none) */
  pageRows?: number;
}

/** Response headers worth passing on to the client in the result's `_meta`. */
const LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-credits-remaining', 'retry-after'];

const PATH_TOKEN = /^[A-Za-z0-9]{1,128}$/;
const PROTOCOLS = ['alpha', 'beta'];
const DEFAULT_PROTOCOL = 'alpha';

/** One argument as a query-string value; `undefined` when omitted (absent or null). */
function wireValue(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  throw new ApiError(400, 'invalid_parameter', `Argument '${name}' must be a single string, number or boolean.`, name);
}

/**
 * The REST path and query of a tool call, or the contract's 400 naming the argument at fault.
 * Returned `query` holds the wire strings (also used by the summary).
 */
export function restRequestOf(tool: RestTool, args: Record<string, unknown>): { path: string; query: Record<string, string> } {
  const rest: Record<string, unknown> = { ...args };
  let pattern = tool.paths.alpha;
  if (hasProtocolArgument(tool)) {
    // omitted = alpha: the tools took no `protocol` before beta's twins existed
    const protocol = rest.protocol ?? DEFAULT_PROTOCOL;
    delete rest.protocol;
    if (typeof protocol !== 'string' || !PROTOCOLS.includes(protocol)) {
      throw new ApiError(400, 'invalid_parameter', "Argument 'protocol' must be alpha or beta.", 'protocol');
    }
    pattern = protocol === 'beta' ? (tool.paths.beta ?? pattern) : pattern;
  }
  const segments = pattern.split('/').map((segment) => {
    if (!segment.startsWith(':')) return segment;
    const name = segment.slice(1);
    const value = wireValue(name, rest[name]);
    delete rest[name];
    if (value === undefined) throw new ApiError(400, 'invalid_parameter', `Argument '${name}' is required.`, name);
    if (!PATH_TOKEN.test(value)) {
      throw new ApiError(400, 'invalid_parameter', `Argument '${name}' must be letters and digits only (1-128).`, name);
    }
    return encodeURIComponent(value);
  });
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(rest)) {
    const wire = wireValue(name, value);
    if (wire !== undefined) query[name] = wire;
  }
  return { path: segments.join('/'), query };
}

/** Buckets of a history tool's window when the call gives no `from` (REST's defaults reach 365). */
export const TOOL_HISTORY_BUCKETS = 48;

/**
 * The `from` of a history tool call that gives none: the start of {@link TOOL_HISTORY_BUCKETS}
 * whole buckets of its interval ending with the one that holds its `to` (default now); undefined when the interval or `to` is malformed (REST
 * then names it).
 */
export function defaultHistoryFrom(query: Readonly<Record<string, string>>, now: number): string | undefined {
  const step = INTERVAL_MS[(query.interval ?? DEFAULT_INTERVAL) as HistoryInterval] as number | undefined;
  const to = query.to === undefined ? now : parseTimestamp(query.to);
  if (step === undefined || to === undefined) return undefined;
  // the start of the bucket holding the window's last instant, then whole buckets back from it
  const last = Math.floor((to - 1) / step) * step;
  return new Date(last - (TOOL_HISTORY_BUCKETS - 1) * step).toISOString();
}

/** Runs a tool call through the REST route it wraps and shapes the MCP result. */
export async function callRestTool(tool: RestTool, args: Record<string, unknown>, ctx: CallContext): Promise<CallToolResult> {
  let request: { path: string; query: Record<string, string> };
  try {
    request = restRequestOf(tool, args);
  } catch (err) {
    if (err instanceof ApiError) return apiErrorResult(err);
    throw err;
  }
  if (ctx.pageRows !== undefined && request.query.limit === undefined) request.query.limit = String(ctx.pageRows);
  if (tool.shape === 'history' && request.query.from === undefined) {
    const from = defaultHistoryFrom(request.query, ctx.now());
    if (from !== undefined) request.query.from = from;
  }
  const search = new URLSearchParams(request.query).toString();
  const url = `http://mcp.internal${request.path}${search ? `?${search}` : ''}`;
  const response = await ctx.fetch(
    new Request(url, {
      headers: { 'x-api-key': ctx.apiKey, accept: 'application/json', 'x-request-id': `${ctx.requestId}.${tool.name}` },
    }),
  );
  const meta: Record<string, string> = {};
  for (const name of LIMIT_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) meta[name] = value;
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return toolErrorResult({ error: { code: 'internal_error', message: 'The REST answer was not JSON.' } });
  }
  if (!response.ok || typeof body !== 'object' || body === null) {
    return { ...toolErrorResult(body as ErrorBody), _meta: meta };
  }
  const payload = body as Record<string, unknown>;
  const summary = summarize(tool, payload, { query: request.query, plan: ctx.plan, now: ctx.now() });
  return {
    // the summary and a short preview of the rows: the data itself is structuredContent, not repeated here
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: preview(payload) },
    ],
    structuredContent: payload,
    _meta: meta,
  };
}
