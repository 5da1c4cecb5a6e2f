/**
 * The hit lane: a repeated REST request whose answer the response cache holds is answered on
 * Node's own request and response objects, before srvx and h3 build theirs.
 *
 * Why: on a cache hit, srvx's request wrapper, h3's event, router and response handling and our async
 * route wrapper were ~20 µs of ~58 µs of main-thread time per request (`node --cpu-prof`); the answer
 * itself is a map lookup.
 *
 * What it may skip and why that is exact:
 * - **Routing and validation.** The lane only knows request targets (`req.url`, byte for byte)
 *   that the full path already routed and validated to a 200 ({@link HitLane.learn}): routing and
 *   the query's validation are functions of the target alone, so the remembered route, path and
 *   validated query are what the full path would find again.
 * - Everything else runs as on the full path, in the contract's order, through the same code:
 *   authentication (`keyOfHeader`), the plan gate, rate limit and credits (`admit`), the cache's
 *   own validity rules (`peek`: generation, clock span), the headers (`requestIdFrom`, staged
 *   limit headers, version). The lane does nothing with side effects until it knows it answers:
 *   any other outcome (a method other than GET, an unknown target, a missing or unknown key, no
 *   entry that holds now) leaves the request to the full path untouched, which then answers it (and
 *   its errors) as always. A 429 from `admit` is answered here, as the app's error handler would:
 *   `admit` may have taken a rate slot before the credits refused, so it must not run twice.
 * test/http/hit-lane.test.ts compares lane answers with full-path ones on a real port.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { H3Event } from 'h3';
import { wantsCsv } from './csv.ts';
import { DATA_SOURCE_HEADER, stageHeader, identityHeaders, JSON_TYPE, requestIdFrom, stagedHeaders, type HeaderStage } from './answer-headers.ts';
import { keyOfHeader } from './auth.ts';
import { describeError, errorHeaders } from './errors.ts';
import type { ResponseCache } from '../cache/response-cache.ts';
import type { CachePolicy } from '../cache/policy.ts';
import { encodeBody } from './compression.ts';
import { admit, type Limits } from '../limits/gate.ts';
import type { KeyStore } from '../keys/store.ts';
import { log } from '../lib/log.ts';

/** What the full path found for a request target: the route (pattern and cost) and the validated query. */
export interface Resolution {
  /** route pattern, e.g. `/v1/alpha/accounts/:address` */
  path: string;
  /** the request's path as the cache keys it (h3's `event.url.pathname`) */
  pathname: string;
  /** the validated query object (frozen, shared: see memoizedQueryParser) */
  query: Record<string, unknown>;
  cost: number;
  /** the route's cache policy */
  cache?: CachePolicy;
}

/** The raw request target of an h3 event served by srvx on Node, if it has one (not `app.request`). */
export function rawTargetOf(event: H3Event): string | undefined {
  return event.req.runtime?.node?.req.url;
}

/** See the file comment. One per app, created with it; `serve.ts` puts it in front of srvx. */
export class HitLane {
  private readonly resolved = new Map<string, Resolution>();
  /** answers given by the lane (tests, bench) */
  readonly stats = { answered: 0 };
  /** the CORS headers for a request's `Origin` (server/http/browser-access.ts; unset: none) */
  cors: ((origin: string | undefined) => Record<string, string> | null) | undefined;

  /**
   * @param limits absent: requests are neither limited nor metered (as `mountRoute` without limits)
   * @param max targets remembered; past it the memory starts over (as the query parser's)
   */
  constructor(
    /** the response cache it answers from (also read for metrics) */
    readonly cache: ResponseCache,
    private readonly keys: KeyStore,
    private readonly limits: Limits | undefined,
    private readonly max = 10_000,
  ) {}

  /** Remembers how the full path resolved request target `target` (called after it answered a 200). */
  learn(target: string, resolution: Resolution): void {
    if (this.resolved.size >= this.max && !this.resolved.has(target)) this.resolved.clear();
    this.resolved.set(target, resolution);
  }

  /** Answers `req` from the cache and returns true, or returns false having changed nothing. */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || req.url === undefined) return false;
    if (wantsCsv(req.headers.accept)) return false; // the full path converts the cached body to CSV
    const known = this.resolved.get(req.url);
    if (known === undefined) return false;
    const key = keyOfHeader(req.headers['x-api-key'] as string | undefined, this.keys);
    if (key === null) return false;
    const cacheKey = this.cache.keyOf(known.pathname, known.cache, known.query, key.plan);
    const now = this.cache.now();
    const hit = this.cache.peek(cacheKey, now);
    if (hit === undefined) return false;
    const stage: HeaderStage = { context: {} };
    stageHeader(stage, DATA_SOURCE_HEADER, this.cache.service.source.dataSource());
    const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
    this.stats.answered += 1;
    if (this.limits) {
      try {
        admit(stage, key, known.cost, this.limits);
      } catch (err) {
        // a 429 (the rate slot may already be taken: answered here, never handed on)
        this.refuse(res, stage, requestId, err);
        return true;
      }
    }
    const body = this.cache.serve(cacheKey, hit, now);
    // content-length given (encodeBody's, of the bytes sent), as srvx gives it: writeHead without
    // it would send the body chunked
    const encoded = encodeBody(body, req.headers['accept-encoding']);
    const headers: Record<string, string> = { 'content-type': JSON_TYPE, ...encoded.headers, ...identityHeaders(stage, requestId) };
    const cors = this.corsOf(req);
    if (cors) {
      const vary = [headers.vary, cors.vary].filter((v) => v !== undefined).join(', ');
      Object.assign(headers, cors);
      if (vary !== '') headers.vary = vary;
    }
    res.writeHead(200, headers);
    res.end(encoded.body);
    return true;
  }

  /** The CORS headers of an answer to `req` (server/http/browser-access.ts), if it has any. */
  private corsOf(req: IncomingMessage): Record<string, string> | undefined {
    const origin = req.headers.origin;
    if (origin === undefined || this.cors === undefined) return undefined;
    return this.cors(origin) ?? undefined;
  }

  /** Answers the error `admit` threw, as the app's error handler would (server/http/errors.ts). */
  private refuse(res: ServerResponse, stage: HeaderStage, requestId: string, err: unknown): void {
    const { status, body, headers } = describeError(err);
    if (status >= 500) log.error(`[${requestId}] admission failed:`, err);
    const all = errorHeaders([Object.entries(stagedHeaders(stage) ?? {}), headers, Object.entries(this.corsOf(res.req) ?? {})], requestId);
    const text = JSON.stringify(body);
    all.set('content-length', String(Buffer.byteLength(text)));
    res.writeHead(status, Object.fromEntries(all));
    res.end(text);
  }
}
