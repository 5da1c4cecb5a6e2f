/**
 * Pyth Solana receiver `PriceUpdateV2` (sponsored push feeds and posted updates) and, for an
 * account still owned by the legacy Pyth program, its v2 price account:
 * shared/design/solana/oracle-prices.md §3a and §3d.
 */
import { AccountError, checkAccount, type RawAccount } from '../accounts/bytes.ts';
import { bytesToHex } from '../units.ts';
import { scaled, type OraclePrice } from './price.ts';
import { ByteReader } from '../reader.ts';

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
  const r = new ByteReader(a.data, `Pyth PriceUpdateV2 ${a.pubkey}`);
  const tag = r.at(40).u8('tag'); // VerificationLevel: 0 Partial { num_signatures u8 }, 1 Full
  if (tag !== 0 && tag !== 1) throw new AccountError(`Pyth PriceUpdateV2 ${a.pubkey}: verification level tag ${tag}`);
  const s = tag === 1 ? 0 : 1;
  const raw = r.at(73 + s).i64('raw');
  if (raw < 0n) throw new AccountError(`Pyth PriceUpdateV2 ${a.pubkey}: negative price`);
  const expo = r.at(89 + s).i32('expo');
  return {
    usd: scaled(raw, expo),
    raw,
    expo,
    publishTime: Number(r.at(93 + s).i64('publishTime')),
    kind: 'pyth',
    feedId: bytesToHex(a.data.subarray(41 + s, 73 + s)),
    full: tag === 1,
    conf: r.at(81 + s).u64('conf'),
  };
}

/** Legacy v2 price account (repr C, no Anchor discriminator): magic 0xa1b2c3d4, version 2, type 3. */
export function decodePythLegacy(a: RawAccount): OraclePrice {
  if (a.owner !== undefined && a.owner !== PYTH_LEGACY_ID) throw new AccountError(`Pyth v2 price ${a.pubkey}: owner ${a.owner}`);
  if (a.data.length < 240) throw new AccountError(`Pyth v2 price ${a.pubkey}: ${a.data.length} bytes`);
  const r = new ByteReader(a.data, `Pyth v2 price ${a.pubkey}`);
  if (r.at(0).u32('magic') !== 0xa1b2c3d4 || r.at(4).u32('version') !== 2 || r.at(8).u32('type') !== 3) throw new AccountError(`Pyth v2 price ${a.pubkey}: not a v2 price account`);
  if (r.at(224).u32('aggregate status') !== 1) throw new AccountError(`Pyth v2 price ${a.pubkey}: aggregate status ${r.at(224).u32('aggregate status')} is not Trading`);
  const raw = r.at(208).i64('raw');
  const expo = r.at(20).i32('expo');
  return { usd: scaled(raw, expo), raw, expo, publishTime: Number(r.at(96).i64('publishTime')), kind: 'pyth-legacy' };
}
