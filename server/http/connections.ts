/**
 * Connection limits of the HTTP server, so that a silent or slow client cannot hold a socket (and
 * its file descriptor): a connection must send its request's headers within `headersMs` of
 * connecting (or of its previous answer, keep-alive), the whole request within `requestMs`, and an
 * idle keep-alive connection closes after `keepAliveMs`. A request being answered has no idle
 * limit (a slow query is not the client's fault); an upgraded WebSocket is the stream hub's
 * (it pings and drops silent peers). The HTTP parser's own refusals (a malformed request line, an
 * oversized header, a request too slow) answer with the contract's error body.
 */
import { randomUUID } from 'node:crypto';
import type { Server, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_VERSION, JSON_TYPE } from './answer-headers.ts';

export interface ConnectionLimits {
  /** from connecting (or the previous answer) to the request's last header byte, ms */
  headersMs: number;
  /** from connecting to the whole request received, ms */
  requestMs: number;
  /** an idle keep-alive connection is closed after this, ms */
  keepAliveMs: number;
  /** how often node checks the first two, ms */
  checkEveryMs: number;
}

/** The defaults, each overridable by environment (docs/operations.md). */
export function connectionLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): ConnectionLimits {
  const ms = (name: string, fallback: number): number => {
    const v = Number(env[name]);
    return env[name] !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
  };
  return {
    headersMs: ms('PERPS_HTTP_HEADERS_TIMEOUT_MS', 10_000),
    requestMs: ms('PERPS_HTTP_REQUEST_TIMEOUT_MS', 30_000),
    keepAliveMs: ms('PERPS_HTTP_KEEPALIVE_TIMEOUT_MS', 5_000),
    checkEveryMs: 1_000,
  };
}

/** node:http server options for `limits` (passed through srvx's `node` option). */
export function nodeServerOptions(limits: ConnectionLimits): ServerOptions {
  return {
    headersTimeout: limits.headersMs,
    requestTimeout: Math.max(limits.requestMs, limits.headersMs),
    keepAliveTimeout: limits.keepAliveMs,
    connectionsCheckingInterval: Math.min(limits.checkEveryMs, limits.headersMs),
  };
}

/** Status, code and message of a parser refusal (node's `clientError` codes). */
function refusalOf(err: NodeJS.ErrnoException): [number, string, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'The request headers are too large.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', 'The request did not arrive in time.'];
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
      return [400, 'bad_request', 'The request line is malformed.'];
    default:
      return [400, 'bad_request', 'The request is malformed.'];
  }
}

/**
 * Puts the limits on `server`: a connection that sends nothing is closed after `headersMs` (node's
 * header timeout counts only once bytes arrive), the parser's refusals answer with our body.
 */
export function guardConnections(server: Server, limits: ConnectionLimits): void {
  server.on('connection', (socket) => socket.setTimeout(limits.headersMs));
  // the request is in: answering it has no idle limit (node puts keep-alive's back after it)
  server.prependListener('request', (req) => req.socket.setTimeout(0));
  server.prependListener('upgrade', (req) => req.socket.setTimeout(0));
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // a connection reset or a socket already written to: nothing can be answered
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const [status, code, message] = refusalOf(err);
    const body = JSON.stringify({ error: { code, message } });
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
        `content-type: ${JSON_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${randomUUID()}\r\n` +
        `x-api-version: ${API_VERSION}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
}
