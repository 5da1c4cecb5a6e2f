/**
 * Stream tickets: how a browser opens the fills stream without its API key in the URL (a browser
 * cannot set `x-api-key` on a WebSocket). A page asks `POST /v1/stream/tickets` with its key in
 * the header and gets a ticket: random, valid {@link TICKET_TTL_MS}, good for one socket, bound to
 * that key. It offers the ticket as a WebSocket subprotocol (see {@link credentialsOfProtocols}).
 *
 * Tickets live in memory only (a restart voids them, which their lifetime makes harmless). A
 * redeemed ticket is checked against the key store again, so a key revoked in the meantime fails.
 */
import { randomBytes } from 'node:crypto';
import type { ApiKeyRecord, KeyStore } from '../keys/store.ts';

/** How long a ticket may wait for its socket. */
export const TICKET_TTL_MS = 30_000;
/** At most this many unredeemed tickets are held; past it the oldest go first. */
const MAX_TICKETS = 10_000;

/** The subprotocol the service speaks; a client offering credentials in subprotocols offers it too. */
export const STREAM_PROTOCOL = 'perps.v1';
const TICKET_PREFIX = 'ticket.';
const KEY_PREFIX = 'key.';

/** What a socket upgrade offered in `Sec-WebSocket-Protocol`. */
export interface OfferedCredentials {
  /** whether `perps.v1` was offered (then the answer must select it) */
  speaksOurs: boolean;
  ticket: string | null;
  key: string | null;
}

/**
 * Reads a `Sec-WebSocket-Protocol` value: `perps.v1` plus either `ticket.<ticket>` or
 * `key.<API key>`. (Subprotocols are tokens: both tickets and keys are made of token characters.)
 */
export function credentialsOfProtocols(header: string | null): OfferedCredentials {
  const offered = (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const find = (prefix: string) => offered.find((p) => p.startsWith(prefix))?.slice(prefix.length) || null;
  return { speaksOurs: offered.includes(STREAM_PROTOCOL), ticket: find(TICKET_PREFIX), key: find(KEY_PREFIX) };
}

interface Held {
  keyId: string;
  expiresAt: number;
}

/** The unredeemed tickets of one server. */
export class TicketBook {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly keys: KeyStore,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A new ticket for `key`, and when it expires (epoch ms). */
  issue(key: ApiKeyRecord): { ticket: string; expiresAt: number } {
    const now = this.clock();
    this.sweep(now);
    while (this.held.size >= MAX_TICKETS) this.held.delete(this.held.keys().next().value!);
    const ticket = randomBytes(24).toString('base64url');
    const expiresAt = now + TICKET_TTL_MS;
    this.held.set(ticket, { keyId: key.id, expiresAt });
    return { ticket, expiresAt };
  }

  /** The key record of `ticket`, which is used up by this call; null when unknown, used or expired, or its key is revoked. */
  redeem(ticket: string): ApiKeyRecord | null {
    const held = this.held.get(ticket);
    if (held === undefined) return null;
    this.held.delete(ticket);
    if (held.expiresAt < this.clock()) return null;
    const record = this.keys.get(held.keyId);
    return record && record.revoked_at === null ? record : null;
  }

  /** Drops expired tickets (insertion order is expiry order: the clock only moves on). */
  private sweep(now: number): void {
    for (const [ticket, held] of this.held) {
      if (held.expiresAt >= now) break;
      this.held.delete(ticket);
    }
  }
}
