import { randomUUID } from 'node:crypto';
import { HTTPError, type H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { log } from '../lib/log.ts';
import { API_VERSION, JSON_TYPE, requestIdOf, stagedHeaders } from './answer-headers.ts';

/** Error codes of the contract (§2), plus `bad_request` for a malformed request no row covers. */
export type ErrorCode =
  | 'invalid_parameter'
  | 'unknown_parameter'
  | 'window_too_large'
  | 'unauthorized'
  | 'plan_required'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'credits_exhausted'
  | 'bad_request'
  | 'internal_error';

/** The one error body a client ever sees. */
export interface ErrorBody {
  error: { code: string; message: string; param?: string };
}

/**
 * An error meant for the client: its status, code, message and (for 400s) the parameter at fault
 * become the contract's `{ error: { code, message, param? } }` body. Extends h3's `HTTPError` so h3
 * treats it as handled (no stack logged); `headers` (e.g. `Allow`, `Retry-After`) go on the answer.
 */
export class ApiError extends HTTPError {
  readonly code: ErrorCode;
  readonly param: string | undefined;

  constructor(status: number, code: ErrorCode, message: string, param?: string, headers?: HeadersInit) {
    super({ status, message, headers });
    this.code = code;
    this.param = param;
  }
}

/** 404 `not_found` (unknown route, account or position). */
export function notFound(message = 'No such resource.'): ApiError {
  return new ApiError(404, 'not_found', message);
}

/** Whether a request reads a REST route: GET, or HEAD (answered like GET, without the body). */
export function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD';
}

/** 405 `method_not_allowed`, with `Allow: GET, HEAD`. */
export function methodNotAllowed(): ApiError {
  return new ApiError(405, 'method_not_allowed', 'Only GET (or HEAD) is supported on this endpoint.', undefined, { allow: 'GET, HEAD' });
}

const GENERIC: Record<number, [ErrorCode, string]> = {
  400: ['bad_request', 'The request is malformed.'],
  401: ['unauthorized', 'A valid API key is required in the x-api-key header.'],
  404: ['not_found', 'No such endpoint.'],
  405: ['method_not_allowed', 'Only GET (or HEAD) is supported on this endpoint.'],
  429: ['rate_limited', 'Too many requests.'],
};

/**
 * Maps any thrown value to a status, the contract body and extra headers. Only {@link ApiError}
 * messages reach the client verbatim; h3's own errors get our wording (h3's messages can quote
 * the URL, query string included); anything unexpected is a bare 500 `internal_error`.
 */
export function describeError(error: unknown, event?: H3Event): { status: number; body: ErrorBody; headers?: Headers } {
  if (error instanceof ApiError) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.param !== undefined) body.error.param = error.param;
    return { status: error.status, body, headers: error.headers };
  }
  if (HTTPError.isError(error) && !error.unhandled && error.status < 500) {
    const status = error.status;
    const [code, fallback] = GENERIC[status] ?? ['bad_request', 'The request cannot be served.'];
    const message = status === 404 && event ? `No endpoint matches ${event.req.method} ${event.url.pathname}.` : fallback;
    const headers = status === 405 ? new Headers({ allow: 'GET, HEAD' }) : error.headers;
    return { status, body: { error: { code, message } }, headers };
  }
  return { status: 500, body: { error: { code: 'internal_error', message: 'An internal error occurred; it has been logged with the request id.' } } };
}

/** The underlying error of an h3-wrapped one (h3 wraps a non-HTTP throw, keeping it as `cause`). */
function rootCause(error: unknown): unknown {
  if (HTTPError.isError(error) && error.unhandled && error.cause instanceof Error) return error.cause;
  return error;
}

/**
 * Builds the JSON error answer: the headers staged before the throw (rate-limit and credit headers,
 * server/http/answer-headers.ts; any on `event.res.headers`) + the error's own headers + request id,
 * version and `content-type`. Never carries a stack or SQL.
 */
export function errorResponse(event: H3Event, status: number, body: ErrorBody, extra?: Headers): Response {
  const staged = Object.entries(stagedHeaders(event) ?? {});
  const headers = errorHeaders([staged, event.res.headers, event.res.errHeaders, extra], requestIdOf(event));
  // srvx's FastResponse: a string body goes out whole with its content-length (a web Response's
  // body would be streamed, chunked)
  return new FastResponse(event.req.method === 'HEAD' ? null : JSON.stringify(body), { status, headers });
}

/**
 * The headers of an error answer: those of `sources` in order (a later one wins; content type and
 * length dropped), then `content-type`, the request id and the version.
 */
export function errorHeaders(sources: readonly (Iterable<[string, string]> | undefined)[], requestId: string): Headers {
  const headers = new Headers();
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of source) {
      if (name !== 'content-type' && name !== 'content-length') headers.set(name, value);
    }
  }
  headers.set('content-type', JSON_TYPE);
  headers.set('x-request-id', requestId);
  headers.set('x-api-version', API_VERSION);
  return headers;
}

/**
 * The app's `onError`: every error, h3's own (unknown route, malformed URL) included, leaves as
 * our body. 5xx are logged with the request id (method and path only: the query may hold a key).
 * Never throws: if mapping fails, a constant 500 goes out.
 */
export function handleError(error: unknown, event: H3Event): Response {
  try {
    const { status, body, headers } = describeError(error, event);
    if (status >= 500) {
      log.error(`[${requestIdOf(event)}] ${event.req.method} ${event.url.pathname} failed:`, rootCause(error));
    }
    return errorResponse(event, status, body, headers);
  } catch (failure) {
    log.error('error handler failed:', failure);
    return new Response('{"error":{"code":"internal_error","message":"An internal error occurred."}}', {
      status: 500,
      headers: { 'content-type': JSON_TYPE, 'x-api-version': API_VERSION, 'x-request-id': randomUUID() },
    });
  }
}
