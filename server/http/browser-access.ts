/**
 * CORS: which web pages other than the service's own may call the API from a browser.
 *
 * The allowed origins come from `PERPS_CORS_ORIGINS` (comma-separated, e.g.
 * `https://dash.example.com,http://localhost:5173`, or `*` for any); unset or empty means
 * same-origin only (the explorer at `/` needs nothing, being same-origin).
 *
 * - A request from an allowed origin gets `Access-Control-Allow-Origin` (that origin, or `*`),
 *   `Vary: Origin` and the headers a page needs to read (limits, credits, request id, retry).
 *   Errors included, so a page can show a 401 or 429 rather than an opaque network failure.
 * - A request from another origin is answered as always, without those headers: the browser then
 *   withholds the answer from the page.
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) from an allowed origin is a 204
 *   allowing GET and POST with `x-api-key`; from another origin a 403 `origin_not_allowed`.
 * The hit lane (server/http/hit-lane.ts) adds the same headers to the answers it gives.
 */
import { HTTPError, type H3, type H3Event } from 'h3';
import { FastResponse } from 'srvx';
import { errorResponse, handleError } from './errors.ts';
import type { HitLane } from './hit-lane.ts';

/** The request headers a page may send, and the answer headers it may read. */
const ALLOW_HEADERS = 'x-api-key, content-type, x-request-id';
const EXPOSE_HEADERS = 'x-request-id, x-api-version, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-credits-remaining, retry-after';
const ALLOW_METHODS = 'GET, POST';
/** How long a browser may reuse a preflight answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/** The origins allowed to call the API from a browser. */
export interface CorsPolicy {
  /** `*`: any origin; else the exact origins (scheme://host[:port], lower case) */
  origins: '*' | ReadonlySet<string>;
}

/** Same-origin only: no cross-origin page may read an answer. */
export const SAME_ORIGIN_ONLY: CorsPolicy = { origins: new Set() };

/**
 * The policy of a `PERPS_CORS_ORIGINS` value; throws with a one-line reason on an entry that is
 * not an origin (a path, a missing scheme), so a typo fails at start rather than silently.
 */
export function corsPolicyFrom(value: string | undefined): CorsPolicy {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.includes('*')) return { origins: '*' };
  const origins = new Set<string>();
  for (const entry of entries) {
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new Error(`PERPS_CORS_ORIGINS: '${entry}' is not an origin (expected scheme://host[:port], e.g. https://dash.example.com)`);
    }
    if (url.origin === 'null' || url.origin !== entry.replace(/\/$/, '').toLowerCase()) {
      throw new Error(`PERPS_CORS_ORIGINS: '${entry}' is not an origin (expected scheme://host[:port] with no path, e.g. ${url.origin})`);
    }
    origins.add(url.origin);
  }
  return { origins };
}

/** Whether `origin` (a request's `Origin` header) may read answers under `policy`. */
export function originAllowed(policy: CorsPolicy, origin: string): boolean {
  return policy.origins === '*' || policy.origins.has(origin.toLowerCase());
}

/** The CORS headers of an answer to a request from `origin` (none when it is absent or not allowed). */
export function corsHeaders(policy: CorsPolicy, origin: string | null | undefined): Record<string, string> | null {
  if (!origin || !originAllowed(policy, origin)) return null;
  return {
    'access-control-allow-origin': policy.origins === '*' ? '*' : origin,
    'access-control-expose-headers': EXPOSE_HEADERS,
    // the answer names the origin: a shared cache must keep one copy per origin
    ...(policy.origins === '*' ? {} : { vary: 'origin' }),
  };
}

/** Adds the CORS headers to `answer` (`vary` joined to the answer's own). */
function dress(answer: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'vary') answer.headers.append(name, value);
    else answer.headers.set(name, value);
  }
  return answer;
}

/** The answer to a preflight: 204 for an allowed origin, 403 `origin_not_allowed` otherwise. */
function preflight(event: H3Event, policy: CorsPolicy, origin: string): Response {
  if (!originAllowed(policy, origin)) {
    return errorResponse(event, 403, {
      error: { code: 'origin_not_allowed', message: `Origin ${origin} may not call this API from a browser; the operator lists allowed origins in PERPS_CORS_ORIGINS.` },
    });
  }
  return new FastResponse(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': policy.origins === '*' ? '*' : origin,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': PREFLIGHT_MAX_AGE,
      ...(policy.origins === '*' ? {} : { vary: 'origin' }),
    },
  });
}

/**
 * Mounts the policy on `app` (a middleware before every route) and on its hit `lane`. A request
 * without `Origin` (any non-browser client, and same-origin GETs) passes straight through.
 */
export function mountBrowserAccess(app: H3, lane: HitLane, policy: CorsPolicy = corsPolicyFrom(process.env.PERPS_CORS_ORIGINS)): void {
  lane.cors = (origin) => corsHeaders(policy, origin);
  // not async itself: a request without Origin (nearly all) costs one header lookup, no promise
  app.use((event, next) => {
    const origin = event.req.headers.get('origin');
    if (origin === null) return next();
    if (event.req.method === 'OPTIONS' && event.req.headers.has('access-control-request-method')) return preflight(event, policy, origin);
    const headers = corsHeaders(policy, origin);
    if (headers === null) return next();
    return dressed(event, next, headers);
  });
}

/** The answer of the rest of the chain, errors and h3's not-found included, with `headers` added. */
async function dressed(event: H3Event, next: () => unknown, headers: Record<string, string>): Promise<unknown> {
  let answer: unknown;
  try {
    answer = await next();
  } catch (err) {
    answer = handleError(err, event);
  }
  // no route matched (h3's "not found" marker): the app's own 404, dressed
  if (answer === undefined || typeof answer === 'symbol') answer = handleError(new HTTPError({ status: 404 }), event);
  if (answer instanceof Response || answer instanceof FastResponse) return dress(answer as Response, headers);
  // a plain value h3 turns into an answer: it takes these headers from the event
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'vary') event.res.headers.append(name, value);
    else event.res.headers.set(name, value);
  }
  return answer;
}
