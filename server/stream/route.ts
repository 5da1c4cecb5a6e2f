/**
 * The h3 route of endpoint 22, `GET /v1/stream/{protocol}/fills`, for both kinds of request:
 *
 * - **Upgrade** (`Upgrade: websocket`): not GET → 405, no valid key → 401, before any upgrade. The
 *   scope is resolved here (it needs a query); whatever is wrong with the plan, the account's cap
 *   or the scope is reported *after* the upgrade as an error frame (hub.ts). The hooks are
 *   attached to the request (crossws reads them from there, since h3 may rebuild the 426 answer).
 *   Upgrades are neither rate-limited nor metered: delivered messages cost no credits and the
 *   per-account cap bounds what one account can hold.
 * - **Plain GET**: the scope echo `{ data: { protocol, market, address, market_variants } }`;
 *   400 (parameter named) / 404 (protocol) on a bad scope. It needs a key but no plan; it is
 *   rate-limited like any REST request and costs 0 credits (a scope check is not data).
 */
import { getQuery, getRouterParam, type H3 } from 'h3';
import { setWebSocketHooks } from 'crossws';
import { jsonAnswer } from '../http/answer-headers.ts';
import { authenticate } from '../http/auth.ts';
import { ApiError, isRead, methodNotAllowed } from '../http/errors.ts';
import { getPlan } from '../keys/plans.ts';
import type { KeyStore } from '../keys/store.ts';
import { admit, type Limits } from '../limits/gate.ts';
import type { Resolved, StreamHub } from './hub.ts';
import { resolveStreamScope, scopeEcho } from './scope.ts';

/** Route pattern of endpoint 22. */
export const STREAM_PATH = '/v1/stream/:protocol/fills';

/** Registers endpoint 22 on `app`, served by `hub`. Without `limits` the plain GET is not limited. */
export function mountStream(app: H3, hub: StreamHub, keys: KeyStore, limits?: Limits): void {
  app.all(STREAM_PATH, async (event) => {
    if (!isRead(event.req.method)) throw methodNotAllowed();
    const key = authenticate(event, keys);
    const protocol = getRouterParam(event, 'protocol') ?? '';
    const query = getQuery(event) as Record<string, unknown>;

    if (event.req.headers.get('upgrade')?.toLowerCase() === 'websocket') {
      // without stream access the scope is not even looked at: the hub's plan check reports it
      let resolved: Resolved = { problem: { code: 'plan_required', message: 'The fills stream needs the premium plan.' } };
      if (getPlan(key.plan).stream) {
        try {
          resolved = { scope: await resolveStreamScope(hub.service, protocol, query) };
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          resolved = { problem: { code: 'invalid_scope', message: err.message, param: err.param } };
        }
      }
      setWebSocketHooks(event.req, hub.hooksFor(key, resolved));
      return new Response('WebSocket upgrade is required.', { status: 426 });
    }

    const admission = limits ? admit(event, key, 0, limits) : undefined;
    try {
      return jsonAnswer(event, JSON.stringify(scopeEcho(await resolveStreamScope(hub.service, protocol, query))));
    } catch (err) {
      admission?.refund();
      throw err;
    }
  });
}
