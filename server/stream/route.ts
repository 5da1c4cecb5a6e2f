/**
 * The h3 route of `GET /v1/stream/{protocol}/fills`, for both kinds of request:
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
 *
 * A browser cannot set `x-api-key` on a socket: an upgrade may instead offer, in
 * `Sec-WebSocket-Protocol`, `perps.v1` with `ticket.<ticket>` (from `POST /v1/stream/tickets`,
 * single use, 30 s) or `key.<API key>` (tickets.ts); the answer then selects `perps.v1`.
 */
import { getQuery, getRouterParam, type H3 } from 'h3';
import { setWebSocketHooks } from 'crossws';
import { jsonAnswer } from '../http/answer-headers.ts';
import { authenticate, keyOfHeader, unauthorized } from '../http/auth.ts';
import { ApiError, isRead, methodNotAllowed } from '../http/errors.ts';
import { getPlan } from '../keys/plans.ts';
import type { ApiKeyRecord, KeyStore } from '../keys/store.ts';
import { admit, type Limits } from '../limits/gate.ts';
import type { Resolved, StreamHub } from './hub.ts';
import { resolveStreamScope, scopeEcho } from './scope.ts';
import { credentialsOfProtocols, STREAM_PROTOCOL, TicketBook } from './tickets.ts';

/** Route pattern of `GET /v1/stream/{protocol}/fills`. */
export const STREAM_PATH = '/v1/stream/:protocol/fills';
/** Where a browser gets a stream ticket. */
export const TICKETS_PATH = '/v1/stream/tickets';

/** Registers `GET /v1/stream/{protocol}/fills` on `app`, served by `hub`. Without `limits` the plain GET is not limited. */
export function mountStream(app: H3, hub: StreamHub, keys: KeyStore, limits?: Limits): void {
  const tickets = new TicketBook(keys);
  mountTickets(app, tickets, keys, limits);
  app.all(STREAM_PATH, async (event) => {
    if (!isRead(event.req.method)) throw methodNotAllowed();
    const upgrade = event.req.headers.get('upgrade')?.toLowerCase() === 'websocket';
    const offered = credentialsOfProtocols(upgrade ? event.req.headers.get('sec-websocket-protocol') : null);
    const key = upgrade ? upgradeKey(event.req.headers.get('x-api-key'), offered, keys, tickets) : authenticate(event, keys);
    const protocol = getRouterParam(event, 'protocol') ?? '';
    const query = getQuery(event) as Record<string, unknown>;

    if (upgrade) {
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
      const hooks = hub.hooksFor(key, resolved);
      // a client that offered subprotocols fails the handshake unless one is selected
      if (offered.speaksOurs) hooks.upgrade = () => ({ protocol: STREAM_PROTOCOL });
      setWebSocketHooks(event.req, hooks);
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

/**
 * The key of an upgrade: the `x-api-key` header, else a key or a ticket offered as a subprotocol
 * (a ticket is used up here, whatever follows). Throws the 401 when none is valid.
 */
function upgradeKey(header: string | null, offered: ReturnType<typeof credentialsOfProtocols>, keys: KeyStore, tickets: TicketBook): ApiKeyRecord {
  const key =
    keyOfHeader(header, keys) ??
    (offered.speaksOurs && offered.key !== null ? keys.authenticate(offered.key) : null) ??
    (offered.speaksOurs && offered.ticket !== null ? tickets.redeem(offered.ticket) : null);
  if (key === null) throw unauthorized();
  return key;
}

/**
 * `POST /v1/stream/tickets`: a single-use ticket for one socket, valid 30 s, bound to the key in
 * `x-api-key`. 201 `{ data: { ticket, expires_at, protocol } }`; 401 without a valid key; 403
 * `plan_required` when the key's plan has no stream (said here, where a page can show it, rather
 * than as a frame after the upgrade). Rate-limited like any request; costs no credit.
 */
function mountTickets(app: H3, tickets: TicketBook, keys: KeyStore, limits?: Limits): void {
  app.all(TICKETS_PATH, (event) => {
    if (event.req.method !== 'POST') {
      throw new ApiError(405, 'method_not_allowed', 'Only POST is supported on this endpoint.', undefined, { allow: 'POST' });
    }
    const key = authenticate(event, keys);
    const plan = getPlan(key.plan);
    if (!plan.stream) throw new ApiError(403, 'plan_required', `The fills stream needs the premium plan; this key's plan is ${plan.name}.`);
    if (limits) admit(event, key, 0, limits);
    const { ticket, expiresAt } = tickets.issue(key);
    const answer = jsonAnswer(event, JSON.stringify({ data: { ticket, expires_at: new Date(expiresAt).toISOString(), protocol: STREAM_PROTOCOL } }), 201);
    answer.headers.set('cache-control', 'no-store');
    return answer;
  });
}
