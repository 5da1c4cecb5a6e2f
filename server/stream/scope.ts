/**
 * The scope of a fills-stream URL (`GET /v1/stream/{protocol}/fills`):
 * `/v1/stream/{protocol}/fills?market=&address=&since_seq=`.
 * One resolution serves the plain GET (its errors are HTTP 400 / 404) and the socket (the same
 * errors become an `invalid_scope` frame after the upgrade, see hub.ts).
 *
 * - `protocol`: alpha or beta, else 404.
 * - `market`: a grouped symbol (params.ts `marketParam`, case-insensitive); it must be known to the
 *   protocol (a fill or a market snapshot of it), else 400 naming `market`. It covers every variant.
 * - `address`: a base58 wallet (32-44 chars), else 400 naming `address`. An address with no fill
 *   yet is fine: the stream is live and its first fill may come later.
 * - `since_seq`: resume point, 0 … the journal's last seq (a seq the journal has not reached is a
 *   400: it cannot come from this journal).
 * - anything else: 400 `unknown_parameter` (contract §1), as on every REST route.
 */
import * as v from 'valibot';
import { ApiError, notFound } from '../http/errors.ts';
import { integerParam, marketParam, parseQueryObject, querySchema } from '../http/params.ts';
import { PROTOCOLS, type Protocol } from '../journal/rows.ts';
import type { Service } from '../service.ts';
import { BASE58_ADDRESS, BASE58_ADDRESS_MESSAGE } from '../lib/address.ts';

/** `address`: a base58 wallet address, exact case. */
export const addressParam = v.pipe(v.string('must be given once'), v.regex(BASE58_ADDRESS, BASE58_ADDRESS_MESSAGE), v.description("Owner address (base58); only this address's fills."));

/** Query of `GET /v1/stream/{protocol}/fills`, for the plain GET and the socket alike. */
export const streamQuery = querySchema({
  market: v.optional(marketParam),
  address: v.optional(addressParam),
  since_seq: v.optional(integerParam(0, 9_999_999_999, "Resume: first send the scope's fills with seq > since_seq (at most 24 h back), then live ones.")),
});

/** A resolved stream scope. */
export interface StreamScope {
  protocol: Protocol;
  /** grouped symbol, upper case; null = every market */
  market: string | null;
  /** null = every address */
  address: string | null;
  /** the market variants the scope covers (sorted; [] for beta, whose variants are null) */
  marketVariants: string[];
  /** resume point; null = live only */
  sinceSeq: number | null;
}

/**
 * Validates and resolves the scope of a stream URL; throws the contract's {@link ApiError}
 * (404 unknown protocol, 400 naming the parameter) otherwise.
 */
export async function resolveStreamScope(service: Service, protocol: string, query: Record<string, unknown>): Promise<StreamScope> {
  if (!(PROTOCOLS as readonly string[]).includes(protocol)) {
    throw notFound(`No stream for protocol '${protocol}': use ${PROTOCOLS.join(' or ')}.`);
  }
  const q = parseQueryObject(streamQuery, query);
  const sinceSeq = q.since_seq ?? null;
  if (sinceSeq !== null && sinceSeq > service.lastSeq()) {
    throw new ApiError(400, 'invalid_parameter', `Parameter 'since_seq' is past the journal's last seq (${service.lastSeq()}).`, 'since_seq');
  }
  const market = q.market ?? null;
  const row = await service.db.queryOne('stream/scope', { protocol, market });
  if (row?.known !== true) {
    throw new ApiError(400, 'invalid_parameter', `Parameter 'market' names no ${protocol} market: '${market}' (see /v1/${protocol}/markets).`, 'market');
  }
  return {
    protocol: protocol as Protocol,
    market,
    address: q.address ?? null,
    marketVariants: (row.market_variants as string[] | null) ?? [],
    sinceSeq,
  };
}

/** The plain GET's body: `{ data: { protocol, market, address, market_variants } }`. */
export function scopeEcho(scope: StreamScope): { data: { protocol: Protocol; market: string | null; address: string | null; market_variants: string[] } } {
  return { data: { protocol: scope.protocol, market: scope.market, address: scope.address, market_variants: scope.marketVariants } };
}
