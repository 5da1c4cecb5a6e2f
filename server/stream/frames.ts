/**
 * Frames of the fills stream (contract §7): `{ "data": Fill }` per fill, and `{ "error": { code,
 * message } }` before the server closes a socket for a reason of its own, with the close code
 * the contract gives that reason.
 */
import type { Plain } from '../db/values.ts';

/** Error codes of stream error frames, with their close codes. */
export const STREAM_ERRORS = {
  /** the key's plan has no stream access */
  plan_required: 1008,
  /** the account already has its plan's number of open stream connections */
  too_many_connections: 1013,
  /** the URL's protocol, market, address or since_seq is invalid */
  invalid_scope: 1008,
  /** more than the allowed bytes are waiting to be sent to this socket */
  slow_consumer: 1013,
  /** the server failed (logged); the client may resume by seq */
  internal_error: 1011,
} as const;

export type StreamErrorCode = keyof typeof STREAM_ERRORS;

/** Close code of a server shutdown ("going away"); no error frame precedes it. */
export const CLOSE_GOING_AWAY = 1001;

/** The error frame `{ "error": { code, message, param? } }` (param as in REST 400 bodies). */
export function errorFrame(code: StreamErrorCode, message: string, param?: string): string {
  return JSON.stringify({ error: param === undefined ? { code, message } : { code, message, param } });
}

/**
 * The data frame of one Fill (a row of `sql/stream/fills.sql`, or fill-json.ts `fillRow`), encoded
 * once: the live fan-out sends the same bytes to every matching socket.
 */
export function dataFrame(row: Record<string, Plain>): Buffer {
  return Buffer.from(`{"data":${JSON.stringify(row)}}`);
}
