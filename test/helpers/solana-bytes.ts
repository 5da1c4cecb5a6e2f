/**
 * Byte-level building blocks for hand-laid test vectors: little-endian integers and raw keys.
 * They know nothing of the event layouts (the tests lay fields out in order themselves), so a
 * golden vector checks the decoders against protocols.md, not against an encoder of ours.
 */
import { getBase58Decoder, getBase58Encoder } from '@solana/codecs';

/** `value` as `bytes` little-endian bytes (two's complement for negatives). */
export function le(value: bigint | number, bytes: number): Uint8Array {
  let v = BigInt(value);
  if (v < 0n) v += 1n << BigInt(8 * bytes);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new Error(`le: ${value} does not fit in ${bytes} bytes`);
  return out;
}

export const u8 = (v: number) => le(v, 1);
export const u64 = (v: bigint | number) => le(v, 8);
export const i64 = (v: bigint | number) => le(v, 8);
export const u128 = (v: bigint | number) => le(v, 16);
export const i128 = (v: bigint | number) => le(v, 16);
export const zeros = (n: number) => new Uint8Array(n);

/** bytes of a hex string */
export function fromHex(h: string): Uint8Array {
  return Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));
}

/** A 32-byte key filled with one byte value, and its base58 spelling. */
export function key(fillByte: number): { bytes: Uint8Array; b58: string } {
  const bytes = new Uint8Array(32).fill(fillByte);
  return { bytes, b58: getBase58Decoder().decode(bytes) };
}

/** The 32 bytes of a base58 key. */
export function keyBytes(b58: string): Uint8Array {
  const b = getBase58Encoder().encode(b58) as Uint8Array;
  if (b.length !== 32) throw new Error(`keyBytes: ${b58} is ${b.length} bytes`);
  return b;
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** base58 of bytes (instruction data as getTransaction's `json` encoding spells it) */
export function b58(bytes: Uint8Array): string {
  return getBase58Decoder().decode(bytes);
}
