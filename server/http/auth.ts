/**
 * API-key authentication: the `x-api-key` header only. A key in the query string is never read
 * (such a request is a 401 when it has no header). Missing, unknown and revoked keys get the same
 * 401. The key itself is never logged or echoed; the record (public id, plan, account) is put on
 * the event context for the plan gate, rate limiting and metering.
 */
import type { H3Event } from 'h3';
import { ApiError } from './errors.ts';
import type { ApiKeyRecord, KeyStore } from '../keys/store.ts';

/** The one 401 message, for a missing, unknown or revoked key alike. */
export const UNAUTHORIZED_MESSAGE = 'A valid API key is required in the x-api-key header.';

/** 401 `unauthorized`. */
export function unauthorized(): ApiError {
  return new ApiError(401, 'unauthorized', UNAUTHORIZED_MESSAGE);
}

/**
 * Authenticates the request by its `x-api-key` header (surrounding whitespace ignored) and stores
 * the key record on `event.context.apiKey`; throws the 401 otherwise.
 */
export function authenticate(event: H3Event, keys: KeyStore): ApiKeyRecord {
  const record = keyOfHeader(event.req.headers.get('x-api-key'), keys);
  if (!record) throw unauthorized();
  event.context.apiKey = record;
  return record;
}

/** The record of the key an `x-api-key` value (null or undefined: absent) names, or null when it names none. */
export function keyOfHeader(header: string | null | undefined, keys: KeyStore): ApiKeyRecord | null {
  return typeof header === 'string' ? keys.authenticate(header.trim()) : null;
}

/** The key record of an authenticated request (throws if the route was not authenticated). */
export function apiKeyOf(event: H3Event): ApiKeyRecord {
  const record = event.context.apiKey as ApiKeyRecord | undefined;
  if (!record) throw new Error('apiKeyOf: request was not authenticated');
  return record;
}
