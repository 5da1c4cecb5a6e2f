/**
 * beta (Jupiter Perpetuals) `Pool` account (Borsh): a String name and a Vec of custody keys come
 * first, so every later offset depends on their lengths, which are parsed, never assumed
 * (shared/design/solana/accounts.md §5; the live name and custody count are UNCONFIRMED).
 */
import { AccountError, checkAccount, type RawAccount } from './bytes.ts';
import { BETA_PROGRAM } from '../layout.ts';
import { ByteReader } from '../reader.ts';

export const POOL_DISCRIMINATOR = 'f19a6d0411b16dbc';
/** The JLP pool (accounts.md §5). */
export const JLP_POOL = '5BUwFW4nRbftYTDMbgxykoFWqWHPzahFSNAaaaJtVKsq';
/** Bounds that no real pool exceeds: a length beyond them means the bytes are not a Pool. */
const MAX_NAME = 64;
const MAX_CUSTODIES = 64;

export interface BetaPoolAccount {
  address: string;
  name: string;
  custodies: string[];
  /** USD 6dp */
  aumUsd: bigint;
}

export function decodeBetaPool(a: RawAccount): BetaPoolAccount {
  checkAccount(a, 'beta Pool', { owner: BETA_PROGRAM, disc: POOL_DISCRIMINATOR, minLength: 16 });
  const r = new ByteReader(a.data, `beta Pool ${a.pubkey}`);
  const nameLen = r.at(8).u32('nameLen');
  if (nameLen > MAX_NAME || 12 + nameLen + 4 > a.data.length) throw new AccountError(`beta Pool ${a.pubkey}: name length ${nameLen} does not fit`);
  const name = new TextDecoder().decode(a.data.subarray(12, 12 + nameLen));
  const n = r.at(12 + nameLen).u32('n');
  const keysAt = 16 + nameLen;
  const aumAt = keysAt + 32 * n;
  if (n > MAX_CUSTODIES || aumAt + 16 > a.data.length) throw new AccountError(`beta Pool ${a.pubkey}: ${n} custodies do not fit in ${a.data.length} bytes`);
  const custodies = Array.from({ length: n }, (_, i) => r.at(keysAt + 32 * i).pubkey(`custodies[${i}]`));
  return { address: a.pubkey, name, custodies, aumUsd: r.at(aumAt).u128('aumUsd') };
}
