/**
 * Compression of answer bodies (JSON, CSV) for clients that accept it: brotli when the client
 * lists `br`, else gzip when it lists `gzip`, else the body as it is. Bodies under
 * {@link COMPRESS_FROM_BYTES} go out as they are (the headers would eat the saving).
 *
 * Every answer that could be compressed carries `Vary: Accept-Encoding`, compressed or not, so a
 * shared cache never hands a compressed body to a client that did not ask for one. The length a
 * caller announces is always that of the bytes it sends (see {@link encodeBody}).
 *
 * The response cache keeps long bodies as Buffers and hands the same Buffer to every hit: their
 * encodings are kept beside them (a WeakMap, so they go when the cache drops the body), so a
 * repeated large answer is compressed once, not per request.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Bodies of fewer bytes are sent as they are. */
export const COMPRESS_FROM_BYTES = 1_024;

/** Brotli quality 4: most of brotli's gain over gzip at gzip's speed (11, the default, is ~50x slower). */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

export type Encoding = 'br' | 'gzip';

/** The encoded forms of long Buffer bodies, kept as long as the body itself. */
const encodedOf = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();

/**
 * The encoding to use for an `Accept-Encoding` value: `br` if listed (and not `q=0`), else `gzip`,
 * else none. `*` counts as both.
 */
export function chooseEncoding(accept: string | null | undefined): Encoding | null {
  if (!accept) return null;
  let br = false;
  let gzip = false;
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const refused = params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
    if (refused) continue;
    const token = name!.trim();
    if (token === 'br' || token === '*') br = true;
    if (token === 'gzip' || token === 'x-gzip' || token === '*') gzip = true;
  }
  return br ? 'br' : gzip ? 'gzip' : null;
}

function compress(bytes: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })
    : gzipSync(bytes, { level: GZIP_LEVEL });
}

/** A body ready to send and the headers it needs beyond its type. */
export interface EncodedBody {
  body: string | Buffer;
  /** `content-length` always; `content-encoding` and `vary` when they apply */
  headers: Record<string, string>;
}

/**
 * `body` for a client whose `Accept-Encoding` is `accept`: compressed when it is long enough and
 * the client takes brotli or gzip, with `content-length`, `content-encoding` and `vary` to match.
 */
export function encodeBody(body: string | Buffer, accept: string | null | undefined): EncodedBody {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (length < COMPRESS_FROM_BYTES) return { body, headers: { 'content-length': String(length) } };
  const encoding = chooseEncoding(accept);
  if (encoding === null) return { body, headers: { 'content-length': String(length), vary: 'accept-encoding' } };
  let encoded: Buffer | undefined;
  if (typeof body === 'string') {
    encoded = compress(Buffer.from(body), encoding);
  } else {
    const kept = encodedOf.get(body) ?? {};
    encoded = kept[encoding];
    if (encoded === undefined) {
      encoded = compress(body, encoding);
      kept[encoding] = encoded;
      encodedOf.set(body, kept);
    }
  }
  return { body: encoded, headers: { 'content-length': String(encoded.length), 'content-encoding': encoding, vary: 'accept-encoding' } };
}
