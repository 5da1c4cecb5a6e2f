/**
 * The parts of docs/api.md that are rules rather than schemas (conventions, paging, windows,
 * errors' order), as Markdown. Numbers in them come from the code's constants, so they follow it.
 */
import { API_VERSION } from '../http/answer-headers.ts';
import { COARSE_INTERVALS, FINE_INTERVALS, MAX_LIMIT } from '../http/params.ts';
import { DEFAULT_INTERVAL, DEFAULT_SPAN_MS, MAX_BUCKETS } from '../read/window.ts';
import { STREAM_ERRORS, CLOSE_GOING_AWAY } from '../stream/frames.ts';
import { DAY_MS } from '../lib/time.ts';

export const INTRO = `Version \`${API_VERSION}\`. Every REST endpoint is a \`GET\` under \`/v1\` that answers JSON;
the fills stream is a WebSocket, MCP a \`POST\`. The machine-readable form of this page is
\`GET /v1/openapi.json\` (OpenAPI 3.1, no key needed), and \`GET /docs\` renders it with a panel to try
calls. Both this page and that document are generated from the same route definitions.`;

export const CONVENTIONS = `- **Envelope**: every answer is a JSON object; the payload is under \`data\`. Lists carry an array in
  \`data\`; paged lists add \`pagination\` or \`next_cursor\`; history adds \`interval\`, \`from\`, \`to\`.
- **Names** are snake_case. \`market\` is a grouped symbol \`<INDEX>-PERP\` (case-insensitive in, upper
  case out); \`market_variant\` is a protocol-native pool id \`<INDEX>/USD[<collateral tokens joined by ->]\`
  (alpha only; null on beta). A \`market\` filter covers every variant of it.
- **Timestamps out**: \`YYYY-MM-DDTHH:MM:SS.sssZ\`, UTC, always three fraction digits.
- **Timestamps in** (\`from\`, \`to\`): RFC 3339 with \`Z\` or an offset, or a bare \`YYYY-MM-DD\`
  (= 00:00Z). Epoch numbers are refused with a 400 that says "use RFC 3339".
- **Amounts** ending in \`_usd\` are JSON numbers in USD, rounded to 6 decimals. Prices (USD per index
  token) and rates are not rounded.
- **Rates** are fractions per hour, signed from the side's point of view: positive = the side
  receives, negative = it pays. Multiply by 24 × 365 to annualize. Beta has no funding: its rates are
  the negated borrow rates, always <= 0.
- **Signs** of deltas: \`size_delta_usd\` and \`collateral_delta_usd\` are positive when the position
  grows, negative when it shrinks; PnL is negative for a loss.
- **Order**: every list has a total order (each sort has a deterministic tie-breaker), so pages
  never repeat or skip a row.
- **Unknown query parameters** are a 400 \`unknown_parameter\` on every endpoint: a typo never widens a query.`;

export const AUTHENTICATION = `Every \`/v1\` endpoint except \`GET /v1/openapi.json\` needs the header \`x-api-key: <key>\`.
A key in the query string is never accepted (the request is then a 401). Keys look like
\`pa_<8-character id>_<32 base62 characters>\`; the operator creates them with the \`keys\` command
(see the README). A key belongs to an account and carries a plan. The stream takes the key on its
upgrade request; MCP on every POST.`;

export const ERROR_ORDER = `Body: \`{ "error": { "code", "message", "param"? } }\`: \`code\` is machine-readable,
\`message\` one human sentence, \`param\` the query parameter at fault (400 only). Checks run in this
order: route (404) → method (405) → key (401) → plan gate (403 on MCP) → rate limit and credits
(429) → parameters (400) → lookup (404). A 500 never carries a stack or SQL: the server log has it
under the answer's \`x-request-id\`. A malformed address or position id in a path is a 404, not a 400.`;

export const PAGING = `- **Offset-paged** endpoints take \`offset\` (default 0) and \`limit\` (1-${MAX_LIMIT}, default ${MAX_LIMIT})
  and answer \`pagination: { limit, offset, total }\`, where \`total\` counts every matching row. Ask
  again with \`offset + limit\` while \`offset + limit < total\`.
- **Cursor-paged** endpoints (liquidation search) answer \`next_cursor\`: pass it as \`cursor\` for the
  next, older page, with the same filters (a cursor binds them; different ones are a 400). It is null
  on the last page, and when the walk reaches the plan's lookback (that page may be short).`;

/** The default window per interval, in words. */
function spans(): string {
  return Object.entries(DEFAULT_SPAN_MS)
    .map(([interval, ms]) => `${interval} → ${ms / DAY_MS} d`)
    .join(', ');
}

export const WINDOWS = `- Intervals: fine \`${FINE_INTERVALS.join(' ')}\`, coarse \`${COARSE_INTERVALS.join(' ')}\`; default \`${DEFAULT_INTERVAL}\`.
- The window is \`[from, to)\`. \`to\` defaults to now. Without \`from\`, the window reaches back by
  interval: ${spans()}. Then \`from\` is raised to the plan's depth when it reaches further back.
  \`from >= to\` is a 400; a window of more than ${MAX_BUCKETS.toLocaleString('en-US')} buckets is a 400 \`window_too_large\`.
- The envelope's \`from\` and \`to\` are the effective bounds (defaulted or clamped), so a client can
  tell that its window was cut.
- Buckets are aligned to the UTC epoch (1d at 00:00Z, 4h at 00/04/08…Z); \`time\` is the bucket start
  and only data inside \`[from, to)\` counts, so a first bucket that starts before \`from\` is partial.
- Open-interest history has one row per bucket with no gaps (the last value carried forward) from
  the first bucket the scope had a position; its values are the state at the bucket's end (now, for
  the running bucket). Before a variant's first market snapshot, open interest is reconstructed from
  the fills' size deltas. Volume, liquidation and funding history omit empty buckets.`;

/** What each stream error code means (the codes and close codes are server/stream/frames.ts's). */
const STREAM_ERROR_WHEN: Record<keyof typeof STREAM_ERRORS, string> = {
  plan_required: "the key's plan has no stream",
  too_many_connections: "the account (over all its keys) already has its plan's number of open sockets",
  invalid_scope: 'unknown protocol or market, malformed address, bad or future `since_seq`, unknown parameter',
  slow_consumer: 'more than 1 MiB waits to be sent to the socket; the message names the `since_seq` to resume from',
  internal_error: 'a resume query failed on the server (logged); resume from the seq it names',
};

/** The stream's error frames and close codes, as a table. */
export function streamCloseCodes(): string {
  const rows = Object.entries(STREAM_ERRORS).map(([code, close]) => {
    const when = STREAM_ERROR_WHEN[code as keyof typeof STREAM_ERRORS];
    if (!when) throw new Error(`docs: stream error ${code} has no description in server/docs/api-prose.ts`);
    return `| \`${code}\` | ${close} | ${when} |`;
  });
  return [
    '| error code | close code | when |',
    '|---|---|---|',
    ...rows,
    `| (none) | ${CLOSE_GOING_AWAY} | the server is shutting down |`,
    '| (none) | 1009 | the client sent a frame over 4 KiB (the stream is read-only) |',
  ].join('\n');
}

export const STREAM_RULES = `- **Key** on the upgrade request (\`x-api-key\` header); none or a bad one: HTTP 401, no upgrade.
  Browsers cannot set headers on a WebSocket: use a server-side client.
- **Scope** is the URL: \`market\` (every variant of it), \`address\`, both (the intersection), or neither
  (the whole protocol). A plain GET on the same URL answers the resolved scope (or the 400 / 404 the
  socket would report) without opening a socket; it needs a key of any plan and costs no credits.
- **Frames**: \`{ "data": StreamFill }\` ([StreamFill](#streamfill)), one per fill in journal (\`seq\`) order, with the same values as
  the lifecycle endpoint. A problem after the upgrade is one \`{ "error": { code, message } }\` frame,
  then a close (table below).
- **Resume** with \`since_seq=N\`: the scope's fills with \`seq > N\` from the last 24 hours come first,
  then live ones, with no gap and no duplicate. An older \`since_seq\` starts at the 24-hour horizon
  (the first frame's \`time\` shows it); one past the journal's last seq is \`invalid_scope\`.
- **Heartbeat**: the server pings every 30 s; a peer silent for 60 s is dropped.
- **Cost**: delivered messages cost no credits; opening a socket is neither rate-limited nor metered.`;

export const MCP_RULES = `\`POST /v1/mcp\` speaks the Model Context Protocol over streamable HTTP, stateless (no session id;
each POST carries JSON-RPC messages and gets a JSON answer). It needs the \`x-api-key\` header and a
plan with MCP; other plans get 403 \`plan_required\`. Any method but POST is a 405.

A tool call is its REST request with the caller's key: the same rate limit, credits (the REST twin's
cost), validation and answers. \`structuredContent\` is the REST body unchanged; \`content\` is a
one-line summary (a truncated page, a clamped window) followed by the same JSON as text. Errors are
tool results with \`isError: true\` and the REST error body. \`initialize\` and \`tools/list\` are free.

A client configuration (Claude Code \`.mcp.json\`, Cursor \`~/.cursor/mcp.json\`):

\`\`\`json
{ "mcpServers": { "perps-analytics": {
  "type": "http", "url": "http://127.0.0.1:8080/v1/mcp", "headers": { "x-api-key": "pa_XXXXXXXX_..." } } } }
\`\`\``;
