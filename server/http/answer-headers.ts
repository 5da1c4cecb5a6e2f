/**
 * The headers of an answer, kept as a plain object on the event until the answer is built.
 *
 * h3 keeps response headers in a web `Headers` (`event.res.headers`): every `set` validates and
 * re-sorts, and a handler's staged headers are merged into the final response by copying them into
 * yet another `Headers` (and, for a `Response`, re-wrapping its body as a stream: the answer then
 * goes out chunked). On a cached answer that was ~6-8 µs of a ~78 µs request (the repeated
 * workload). So the limit gate stages its headers here ({@link stageHeader}), REST answers are built
 * once with every header in a plain object ({@link jsonAnswer}, an srvx `FastResponse`, which
 * writes them straight to Node), and errors copy them too (server/http/errors.ts). MCP, whose
 * answer the SDK's transport builds, copies them onto that answer ({@link withAnswerHeaders}).
 */
import { randomUUID } from 'node:crypto';
import type { H3Event } from 'h3';
import { FastResponse } from 'srvx';
import type { Body } from '../cache/json-body.ts';
import { encodeBody } from './compression.ts';
import { CSV_TYPE, csvAnswer } from './csv.ts';

/** The header naming the source that feeds the data (`simulated`, `solana`, `replay`, `none`) on every answer. */
export const DATA_SOURCE_HEADER = 'x-data-source';

/** The interface version every REST response announces in `x-api-version`. */
export const API_VERSION = '1.0.0-rc.1';

const STAGED = 'perpsAnswerHeaders';
/** The content type of every JSON answer, spelled as h3 spells it. */
export const JSON_TYPE = 'application/json;charset=UTF-8';
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request id of this request: an incoming `x-request-id` when it looks sane (8-128 of
 * `[A-Za-z0-9._:-]`, so it is safe in logs), else a fresh UUID. Assigned once, on first use.
 */
export function requestIdOf(event: H3Event): string {
  const known = event.context.requestId;
  if (typeof known === 'string') return known;
  const id = requestIdFrom(event.req.headers.get('x-request-id'));
  event.context.requestId = id;
  return id;
}

/** The request id for an incoming `x-request-id` value (null or undefined: none): it, when sane, else a fresh UUID. */
export function requestIdFrom(incoming: string | null | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Where headers are staged: an h3 event's context, or the hit lane's (server/http/hit-lane.ts). */
export type HeaderStage = Pick<H3Event, 'context'>;

/** The headers staged so far for this request's answer (undefined: none). */
export function stagedHeaders(event: HeaderStage): Readonly<Record<string, string>> | undefined {
  return event.context[STAGED] as Record<string, string> | undefined;
}

/** Stages a header (lower-case name) for this request's answer, success or error; a later value replaces it. */
export function stageHeader(event: HeaderStage, name: string, value: string): void {
  const staged = (event.context[STAGED] as Record<string, string> | undefined) ?? (event.context[STAGED] = {});
  staged[name] = value;
}

/** Every header of a REST answer but its content type: the staged ones, the request id and the version. */
export function identityHeaders(stage: HeaderStage, requestId: string): Record<string, string> {
  return { ...stagedHeaders(stage), 'x-request-id': requestId, 'x-api-version': API_VERSION };
}

const identityAnd = (event: H3Event): Record<string, string> => identityHeaders(event, requestIdOf(event));

/** A JSON answer (200 unless `status` says otherwise) with `body` (already serialized) and every
 * header of the request (REST, the stream's scope echo, /health); compressed when the client
 * accepts it (server/http/compression.ts). */
export function jsonAnswer(event: H3Event, body: Body, status = 200): Response {
  return typedAnswer(event, body, JSON_TYPE, status);
}

/** An answer of any text type (JSON, CSV) with every header of the request, compressed when the client accepts it. */
export function typedAnswer(event: H3Event, body: Body, contentType: string, status = 200, extra: Record<string, string> = {}): Response {
  const encoded = encodeBody(body, event.req.headers.get('accept-encoding'));
  // bytes go to the socket as they are (srvx sends a Uint8Array body unchanged); the cast only
  // narrows Node's Buffer<ArrayBufferLike> to the DOM's BodyInit
  return new FastResponse(encoded.body as string | Uint8Array<ArrayBuffer>, { status, headers: { 'content-type': contentType, ...extra, ...encoded.headers, ...identityAnd(event) } });
}

/** A CSV answer (200) of a list or history route's JSON body, its envelope as headers (server/http/csv.ts), compressed as JSON answers are. */
export function csvResponse(event: H3Event, columns: readonly string[], body: Body): Response {
  const { text, headers } = csvAnswer(columns, body);
  return typedAnswer(event, text, CSV_TYPE, 200, headers);
}

/**
 * An answer built elsewhere (MCP: the SDK's transport) with the staged headers, request id and
 * version added. Not through `event.res.headers`: h3 merges those into a returned `Response` only
 * below status 400, so the transport's own 400/406/415 answers went out without them.
 */
export function withAnswerHeaders(event: H3Event, answer: Response): Response {
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return new FastResponse(answer.body, { status: answer.status, statusText: answer.statusText, headers: { ...headers, ...identityAnd(event) } });
}
