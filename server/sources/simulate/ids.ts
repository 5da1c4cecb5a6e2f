/**
 * Deterministic, real-looking Solana identifiers: wallet addresses and position keys (base58 of
 * 32-byte values) and transaction signatures (base58 of 64-byte values).
 *
 * Encoding random bytes to base58 is quadratic and would dominate a million-fill run, so the
 * base58 digits are drawn directly. The leading digit is bounded so that every string decodes to
 * a value of exactly 32 (resp. 64) bytes without leading zero bytes, and the 43/44 (87/88)
 * character length mix is about the real one. Every id is a pure function of (seed, kind,
 * inputs): a position key depends only on owner + market + collateral token + side (like the
 * PDA), so reopening a closed position reuses it; a signature depends on a global counter.
 */
import { mix32 } from './rng.ts';
import { BASE58_ALPHABET } from '../../lib/address.ts';

const CODES = Array.from(BASE58_ALPHABET, (c) => c.charCodeAt(0));
const TWO_POW_32 = 4_294_967_296;

/** A small sfc32 generator seeded from four mixed words: enough for digit streams. */
class DigitStream {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;
  private x = 0;
  private left = 0;

  constructor(a: number, b: number, c: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    for (let i = 0; i < 12; i++) this.next();
  }

  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / TWO_POW_32;
  }

  /** a base58 digit 0..57; five digits are taken from each 32-bit draw (58^5 < 2^32) */
  digit(): number {
    if (this.left === 0) {
      this.x = this.next();
      this.left = 5;
    }
    this.x *= 58;
    const d = Math.floor(this.x);
    this.x -= d;
    this.left--;
    return d;
  }
}

/** reused character-code buffers, one per length (a million signatures: no garbage) */
const BUFFERS = new Map<number, number[]>();

/** A base58 string of `len` characters whose first digit lies in [minFirst, maxFirst]. */
function digits(stream: DigitStream, len: number, minFirst: number, maxFirst: number): string {
  let codes = BUFFERS.get(len);
  if (codes === undefined) BUFFERS.set(len, (codes = new Array<number>(len).fill(0)));
  codes[0] = CODES[minFirst + Math.floor(stream.next() * (maxFirst - minFirst + 1))]!;
  for (let i = 1; i < len; i++) codes[i] = CODES[stream.digit()]!;
  return String.fromCharCode.apply(null, codes);
}

/**
 * A 32-byte key. 58^43 ≈ 2^251.9 and 2^256 / 58^43 ≈ 17.2, so 44 characters with a leading digit
 * in 1..16 stay below 2^256 (and above 2^248: no leading zero byte, which base58 would spell as a
 * leading '1'); 43 characters need a leading digit >= 4 to reach 2^248. About 1 random key in 17
 * is 43 characters long.
 */
function key32(stream: DigitStream): string {
  return stream.next() < 1 / 17 ? digits(stream, 43, 4, 57) : digits(stream, 44, 1, 16);
}

/**
 * A 64-byte signature. 58^87 ≈ 2^509.7 and 2^512 / 58^87 ≈ 4.9, so 88 characters with a leading
 * digit in 1..4 (value below 2^512, above 2^504); 87 characters need a leading digit >= 2. About 1
 * in 5 real signatures is 87 characters long.
 */
function sig64(stream: DigitStream): string {
  return stream.next() < 0.2 ? digits(stream, 87, 2, 57) : digits(stream, 88, 1, 4);
}

/** 32-bit FNV-1a hash of a string, mixed */
export function hashString(s: string, salt = 0): number {
  let h = 0x811c9dc5 ^ salt;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix32(h);
}

const KIND_WALLET = 0x57a11e7;
const KIND_POSITION = 0x9051710;
const KIND_TX = 0x7c5167;

/** The wallet address of trader number `index`. */
export function walletAddress(seed: number, index: number): string {
  return key32(new DigitStream(mix32(seed ^ KIND_WALLET), mix32(index), mix32(index ^ 0x5bd1e995)));
}

/**
 * The position account of (owner, market or variant, collateral token, side): like the PDA, the
 * same inputs always give the same key.
 */
export function positionKey(seed: number, owner: string, market: string, collateral: string, side: string): string {
  const text = `${owner}|${market}|${collateral}|${side}`;
  return key32(new DigitStream(mix32(seed ^ KIND_POSITION), hashString(text, 0x1234567), hashString(text, 0x7654321)));
}

/** The signature of transaction number `counter` (counters are unique per simulation). */
export function txSignature(seed: number, counter: number): string {
  const hi = Math.floor(counter / TWO_POW_32);
  return sig64(new DigitStream(mix32(seed ^ KIND_TX), mix32(counter >>> 0), mix32(hi ^ 0x27d4eb2d)));
}
