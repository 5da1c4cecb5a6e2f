/**
 * Answer bodies as bytes where that saves work. On this kind of machine a fresh page of
 * memory costs ~15 µs to fault in, and a large answer built as one string allocates several:
 * V8 puts a string over ~128 KB in a fresh mapping of its own, and sending it flattens and encodes
 * it into more (a 234 KB page of GET /v1/alpha/liquidations/search: ~120 page faults, 4-8 ms of
 * server CPU; docs/performance.md, "Read path"). A body that is already UTF-8 bytes is written to
 * the socket as it is.
 */

/** A JSON answer body: text, or its UTF-8 bytes. */
export type Body = string | Buffer;

/**
 * A route's answer already serialized: a handler may return one instead of an object when it holds its
 * rows as JSON bytes (`GET /v1/alpha/liquidations/search`'s in-memory events), so that a 500-row page
 * is a copy of bytes rather than JSON.stringify of 500 objects and an encoding of the result. The body
 * must be exactly what JSON.stringify of the equivalent object would give.
 */
export class JsonBody {
  constructor(readonly body: Body) {}
}

/** The JSON body of a route's result: a {@link JsonBody}'s own, anything else by JSON.stringify. */
export function serializeResult(result: unknown): Body {
  return result instanceof JsonBody ? result.body : JSON.stringify(result);
}

/**
 * Bodies of at least this many characters are kept by the response cache as bytes (see the file
 * comment). Also why not higher: a kept string lives in V8's heap, so the young-generation
 * collections copy it (twice: within the young space, then into the old one), and a run of cached
 * history answers of 5-30 KB made scavenges of several ms inside the bench's measured requests;
 * bytes live outside the heap and are not copied (docs/performance.md, "Answers kept as bytes").
 * From 4 KB on, `Buffer.from` gives each body its own memory rather than a
 * slice of a shared 8 KB pool slab, which a kept slice would hold whole; the short answers (most
 * hits, e.g. the bench's repeated 303-byte one) stay strings.
 */
export const BYTES_FROM_CHARS = 4_096;

/** `body` as the response cache keeps it: a long text as its bytes, encoded once for every hit. */
export function keptBody(body: Body): Body {
  return typeof body === 'string' && body.length >= BYTES_FROM_CHARS ? Buffer.from(body) : body;
}

/** The UTF-16 characters or bytes a body is counted for in the cache's budget. */
export function bodySize(body: Body): number {
  return typeof body === 'string' ? body.length * 2 : body.length;
}
