/**
 * Pyth Solana receiver `PriceUpdateV2` (sponsored push feeds and posted updates) and, for an
 * account still owned by the legacy Pyth program, its v2 price account:
 * shared/design/solana/oracle-prices.md §3a and §3d.
 */
import { AccountError, checkAccount, Reader, type RawAccount } from '../accounts/bytes.ts';
import { bytesToHex } from '../units.ts';
import { scaled, type OraclePrice } from './price.ts';

export const PYTH_RECEIVER_ID = 'rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ';
export const PRICE_UPDATE_V2_DISCRIMINATOR = '22f123639d7ef4cd';
/** UNCONFIRMED that any custody still points at one (oracle-prices.md §3d). */
export const PYTH_LEGACY_ID = 'FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH';

export interface PythPrice extends OraclePrice {
  feedId: string;
  /** verification level: a Partial update shifts every later field by one byte */
  full: boolean;
  conf: bigint;
}

export function decodePythPriceUpdate(a: RawAccount): PythPrice {
  checkAccount(a, 'Pyth PriceUpdateV2', { owner: PYTH_RECEIVER_ID, disc: PRICE_UPDATE_V2_DISCRIMINATOR, minLength: 133 });
  const r = new Reader(a.data);
  const tag = r.u8(40); // VerificationLevel: 0 Partial { num_signatures u8 }, 1 Full
  if (tag !== 0 && tag !== 1) throw new AccountError(`Pyth PriceUpdateV2 ${a.pubkey}: verification level tag ${tag}`);
  const s = tag === 1 ? 0 : 1;
  const raw = r.i64(73 + s);
  if (raw < 0n) throw new AccountError(`Pyth PriceUpdateV2 ${a.pubkey}: negative price`);
  const expo = r.i32(89 + s);
  return {
    usd: scaled(raw, expo), raw, expo, publishTime: r.seconds(93 + s), kind: 'pyth',
    feedId: bytesToHex(a.data.subarray(41 + s, 73 + s)), full: tag === 1, conf: r.u64(81 + s),
  };
}

/** Legacy v2 price account (repr C, no Anchor discriminator): magic 0xa1b2c3d4, version 2, type 3. */
export function decodePythLegacy(a: RawAccount): OraclePrice {
  if (a.owner !== undefined && a.owner !== PYTH_LEGACY_ID) throw new AccountError(`Pyth v2 price ${a.pubkey}: owner ${a.owner}`);
  if (a.data.length < 240) throw new AccountError(`Pyth v2 price ${a.pubkey}: ${a.data.length} bytes`);
  const r = new Reader(a.data);
  if (r.u32(0) !== 0xa1b2c3d4 || r.u32(4) !== 2 || r.u32(8) !== 3) throw new AccountError(`Pyth v2 price ${a.pubkey}: not a v2 price account`);
  if (r.u32(224) !== 1) throw new AccountError(`Pyth v2 price ${a.pubkey}: aggregate status ${r.u32(224)} is not Trading`);
  const raw = r.i64(208);
  const expo = r.i32(20);
  return { usd: scaled(raw, expo), raw, expo, publishTime: r.seconds(96), kind: 'pyth-legacy' };
}
