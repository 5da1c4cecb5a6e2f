/**
 * Little-endian readers over account data, and the run-time checks every account decoder makes
 * before it trusts an offset: owner program, 8-byte discriminator and a minimum length (never an
 * exact size: programs append fields). Kept here rather than shared with the event decoders so
 * the account side does not depend on their layout module.
 */
import { log } from '../../../log.ts';
import { bytesToBase58 } from '../base58.ts';
import { bytesToHex } from '../units.ts';

/** An account that is not what the caller expected: wrong owner, discriminator or too short. */
export class AccountError extends Error {}

/** The raw account as an RPC read returns it. */
export interface RawAccount {
  pubkey: string;
  /** owner program (base58); undefined when the read did not say (getProgramAccounts: the program itself) */
  owner?: string;
  data: Uint8Array;
}

/**
 * Checks owner, discriminator (hex of the first 8 bytes) and that the data reaches `minLength`.
 * `what` names the account kind in the error.
 */
export function checkAccount(a: RawAccount, what: string, expect: { owner: string; disc: string; minLength: number }): void {
  if (a.owner !== undefined && a.owner !== expect.owner) throw new AccountError(`${what} ${a.pubkey}: owner ${a.owner}, expected ${expect.owner}`);
  if (a.data.length < 8 || bytesToHex(a.data.subarray(0, 8)) !== expect.disc) {
    throw new AccountError(`${what} ${a.pubkey}: discriminator ${bytesToHex(a.data.subarray(0, 8))}, expected ${expect.disc}`);
  }
  if (a.data.length < expect.minLength) throw new AccountError(`${what} ${a.pubkey}: ${a.data.length} bytes, at least ${expect.minLength} needed`);
}

/** Decodes, or logs why not and returns undefined: one odd account never stops a snapshot. */
export function tryDecode<T>(decode: (a: RawAccount) => T, a: RawAccount | null, what: string): T | undefined {
  if (!a) return undefined;
  try {
    return decode(a);
  } catch (err) {
    if (err instanceof AccountError) log.warn(`solana: ${what}: ${err.message}`);
    else throw err;
    return undefined;
  }
}

/** Reads fixed-offset little-endian fields of one buffer (offsets count the discriminator). */
export class Reader {
  private readonly view: DataView;
  constructor(readonly data: Uint8Array) {
    this.view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  }
  u8(at: number): number {
    return this.view.getUint8(at);
  }
  i8(at: number): number {
    return this.view.getInt8(at);
  }
  u16(at: number): number {
    return this.view.getUint16(at, true);
  }
  u32(at: number): number {
    return this.view.getUint32(at, true);
  }
  i32(at: number): number {
    return this.view.getInt32(at, true);
  }
  u64(at: number): bigint {
    return this.view.getBigUint64(at, true);
  }
  i64(at: number): bigint {
    return this.view.getBigInt64(at, true);
  }
  /** An i64 of unix seconds as a JS number (exact below 2^53). */
  seconds(at: number): number {
    return Number(this.i64(at));
  }
  u128(at: number): bigint {
    return this.view.getBigUint64(at, true) | (this.view.getBigUint64(at + 8, true) << 64n);
  }
  i128(at: number): bigint {
    const lo = this.view.getBigUint64(at, true);
    const hi = this.view.getBigInt64(at + 8, true);
    return (hi << 64n) | lo;
  }
  bool(at: number): boolean {
    return this.view.getUint8(at) !== 0;
  }
  pubkey(at: number): string {
    return bytesToBase58(this.data.subarray(at, at + 32));
  }
  /** A NUL-padded UTF-8 string of `len` bytes. */
  fixedString(at: number, len: number): string {
    const raw = this.data.subarray(at, at + len);
    const end = raw.indexOf(0);
    return new TextDecoder().decode(end < 0 ? raw : raw.subarray(0, end));
  }
}

/** The all-zero public key (an unset optional key). */
export const ZERO_KEY = '11111111111111111111111111111111';
