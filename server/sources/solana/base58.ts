/**
 * Base58 for instruction data. getTransaction spells inner-instruction data in base58 whatever
 * the encoding asked for, and an alpha TradeEvent is ~1 KB: @solana/codecs' base58 (BigInt
 * based) takes ~4-15 ms for that, which would cap the indexer at a few dozen transactions a
 * second. These convert in limbs of 24 bits, four or three digits at a time (tens of
 * microseconds for 1 KB); test/sources/solana/solana-rpc.test.ts checks them against @solana/codecs.
 */
import { BASE58_ALPHABET } from '../../lib/address.ts';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE58_ALPHABET.length; i++) DIGIT[BASE58_ALPHABET.charCodeAt(i)] = i;
const LIMB = 16_777_216; // 2^24

/** base58 text → bytes (throws on a character outside the alphabet). */
export function base58ToBytes(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // little-endian limbs of 24 bits; fold in up to 4 digits at a time (58^4 < 2^24)
  const limbs: number[] = [];
  for (let i = zeros; i < text.length; ) {
    let mul = 1;
    let add = 0;
    for (let k = 0; k < 4 && i < text.length; k++, i++) {
      const c = text.charCodeAt(i);
      const d = c < 128 ? DIGIT[c]! : -1;
      if (d < 0) throw new Error(`base58: invalid character "${text[i]}"`);
      mul *= 58;
      add = add * 58 + d;
    }
    let carry = add;
    for (let j = 0; j < limbs.length; j++) {
      const v = limbs[j]! * mul + carry;
      carry = Math.floor(v / LIMB);
      limbs[j] = v - carry * LIMB;
    }
    while (carry > 0) {
      limbs.push(carry % LIMB);
      carry = Math.floor(carry / LIMB);
    }
  }
  const body: number[] = [];
  for (const l of limbs) body.push(l & 0xff, (l >> 8) & 0xff, (l >> 16) & 0xff);
  while (body.length && body[body.length - 1] === 0) body.pop();
  const out = new Uint8Array(zeros + body.length);
  for (let i = 0; i < body.length; i++) out[zeros + i] = body[body.length - 1 - i]!;
  return out;
}

/** bytes → base58 text. */
export function bytesToBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // little-endian limbs of base 58^3 (195,112 < 2^18): fold in up to two bytes at a time
  const BASE = 195_112;
  const limbs: number[] = [];
  for (let i = zeros; i < bytes.length; ) {
    let mul = 256;
    let carry = bytes[i++]!;
    if (i < bytes.length) {
      mul = 65_536;
      carry = carry * 256 + bytes[i++]!;
    }
    for (let j = 0; j < limbs.length; j++) {
      const v = limbs[j]! * mul + carry;
      carry = Math.floor(v / BASE);
      limbs[j] = v - carry * BASE;
    }
    while (carry > 0) {
      limbs.push(carry % BASE);
      carry = Math.floor(carry / BASE);
    }
  }
  const digits: string[] = [];
  for (const limb of limbs) {
    let l = limb;
    for (let k = 0; k < 3; k++) {
      digits.push(BASE58_ALPHABET[l % 58]!);
      l = Math.floor(l / 58);
    }
  }
  while (digits.length && digits[digits.length - 1] === '1') digits.pop();
  return '1'.repeat(zeros) + digits.reverse().join('');
}
