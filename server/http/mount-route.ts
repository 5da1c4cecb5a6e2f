/**
 * Mounts one REST route (server/http/routes/define.ts) on an h3 app, in the contract's order:
 * method (not GET or HEAD → 405) → auth (401) → plan gate, rate limit and credits (429,
 * server/limits/gate.ts) → query validation (400) → the response cache or the handler. Credits are
 * reserved at admission and refunded unless the handler succeeds (a 4xx or 5xx costs nothing).
 */
import type { H3, H3Event } from 'h3';
import type { ResponseCache } from '../cache/response-cache.ts';
import { serializeResult, type Body } from '../cache/json-body.ts';
import type { KeyStore } from '../keys/store.ts';
import { admit, type Limits } from '../limits/gate.ts';
import { csvResponse, jsonAnswer } from './answer-headers.ts';
import { authenticate } from './auth.ts';
import { csvColumns, wantsCsv } from './csv.ts';
import { isRead, methodNotAllowed } from './errors.ts';
import { type HitLane, rawTargetOf } from './hit-lane.ts';
import { memoizedQueryParser } from './params.ts';
import type { RestRoute } from './routes/define.ts';

/**
 * Registers one REST route on `app` for all methods: GET runs it, anything else is a 405.
 * Without `limits` (tests mounting an extra route) requests are neither limited nor metered.
 * With `cache`, a 200 body may come from the response cache (server/cache/response-cache.ts), after auth,
 * limits and validation exactly as a computed one.
 */
export function mountRoute(app: H3, route: RestRoute, keys: KeyStore, limits?: Limits, cache?: ResponseCache, lane?: HitLane): void {
  const parse = memoizedQueryParser(route.query);
  /** Tells the hit lane how this request's target resolved, once it has answered a 200. */
  const learn = (event: H3Event, query: Record<string, unknown>): void => {
    const target = lane && rawTargetOf(event);
    if (target !== undefined) lane!.learn(target, { path: route.path, pathname: event.url.pathname, query, cost: route.cost, cache: route.cache });
  };
  /** The answer's JSON body, from the cache when there is one. */
  const bodyOf = async (event: H3Event): Promise<Body> => {
    if (route.auth === false) return serializeResult(await route.handle({ event, query: parse(event), key: null }));
    const key = authenticate(event, keys);
    const admission = limits ? admit(event, key, route.cost, limits) : undefined;
    try {
      const query = parse(event);
      if (cache) {
        const body = await cache.respond(event, route.cache, query, key.plan, () => route.handle({ event, query, key }));
        learn(event, query);
        return body;
      }
      return serializeResult(await route.handle({ event, query, key }));
    } catch (err) {
      admission?.refund();
      throw err;
    }
  };
  const columns = csvColumns(route);
  app.all(route.path, async (event) => {
    if (!isRead(event.req.method)) throw methodNotAllowed();
    // list and history answers in CSV on request (server/http/csv.ts), made from the JSON body
    if (columns && wantsCsv(event.req.headers.get('accept'))) return csvResponse(event, columns, await bodyOf(event));
    return jsonAnswer(event, await bodyOf(event));
  });
}
