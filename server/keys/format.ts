/**
 * API key format: `pa_<id>_<secret>`, `id` = 8 characters `[a-z0-9]` (public: shown by `keys list`,
 * logged, used by `keys revoke <id>`), `secret` = 32 base62 characters (~190 bits) from node:crypto.
 * At rest only the SHA-256 of the whole key is kept; comparisons run in constant time.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE36 = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A well-formed key; group 1 is its id. */
export const KEY_PATTERN = /^pa_([a-z0-9]{8})_([A-Za-z0-9]{32})$/;
/** A well-formed key id. */
export const KEY_ID_PATTERN = /^[a-z0-9]{8}$/;

/** `length` characters drawn uniformly from `alphabet` (rejection sampling: no modulo bias). */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A fresh key id (8 × `[a-z0-9]`). */
export function generateKeyId(): string {
  return randomString(BASE36, 8);
}

/** A fresh raw key for `id`: `pa_<id>_<32 base62>`. */
export function generateApiKey(id: string = generateKeyId()): { id: string; key: string } {
  if (!KEY_ID_PATTERN.test(id)) throw new Error(`invalid key id ${JSON.stringify(id)}`);
  return { id, key: `pa_${id}_${randomString(BASE62, 32)}` };
}

/** The id of a well-formed key, or null (anything else, including surrounding whitespace). */
export function keyIdOf(raw: string): string | null {
  return KEY_PATTERN.exec(raw)?.[1] ?? null;
}

/** SHA-256 of the whole key, lower-case hex: the only form a key is stored in. */
export function hashApiKey(raw: string): string {
  return hash('sha256', raw, 'hex');
}

/**
 * SHA-256 of the whole key as 32 bytes, for per-request checks: the one-shot `crypto.hash` and no
 * hex round trip (a `createHash` object, hex digest and two hex decodes cost ~10 µs a request under
 * load, the largest part of a cached answer's own work).
 */
export function apiKeyDigest(raw: string): Buffer {
  return hash('sha256', raw, 'buffer');
}

const DIGEST_ZERO = Buffer.alloc(32);
const DIGEST_ONE = Buffer.alloc(32, 1);

/**
 * Constant-time equality of two SHA-256 digests (`timingSafeEqual` over the 32 bytes). Anything
 * not 32 bytes long compares unequal, still after a full-length comparison.
 */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  const ok = a.length === 32 && b.length === 32;
  return timingSafeEqual(ok ? a : DIGEST_ZERO, ok ? b : DIGEST_ONE) && ok;
}
