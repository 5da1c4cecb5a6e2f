/**
 * The run-time checks every account decoder makes before it trusts an offset: owner program,
 * 8-byte discriminator and a minimum length (never an exact size: programs append fields). The
 * fields themselves are read with reader.ts's ByteReader, as the event decoders read theirs.
 */
import { log } from '../../../lib/log.ts';
import { LayoutError } from '../reader.ts';
import type { AccountInfo } from '../rpc.ts';
import { bytesToHex } from '../units.ts';

/** An account that is not what the caller expected: wrong owner, discriminator or too short. */
export class AccountError extends LayoutError {}

/**
 * An account as a decoder takes it: either RPC read (rpc.ts); the owner program is undefined when
 * the read did not say (getProgramAccounts: the program itself).
 */
export type RawAccount = AccountInfo & { owner?: string };

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
    if (err instanceof LayoutError) log.warn(`solana: ${what}: ${err.message}`);
    else throw err;
    return undefined;
  }
}

/** The all-zero public key (an unset optional key). */
export const ZERO_KEY = '11111111111111111111111111111111';
