/**
 * Doves `AgPriceFeed` (beta's mark price, at `custody.doves_ag_oracle`) and the legacy Doves
 * `PriceFeed` (`custody.doves_oracle`): shared/design/solana/oracle-prices.md §1b-1c.
 */
import { AccountError, checkAccount, type RawAccount } from '../accounts/bytes.ts';
import { scaled, type OraclePrice } from './price.ts';
import { ByteReader } from '../reader.ts';

export const DOVES_PROGRAM_ID = 'DoVEsk76QybCEHQGzkvYPWLQu9gzNoZZZt3TPiL597e';
export const AG_PRICE_FEED_DISCRIMINATOR = '70f98bd9d7d0f936';
/** Same value as GMX's PriceFeed: only the owner check tells them apart. */
export const DOVES_PRICE_FEED_DISCRIMINATOR = 'bd67fc179823f39c';

/**
 * UNCONFIRMED: the IDL (2025-04) is older than the live program, which has instructions the IDL
 * lacks; third-party decoders still read price @168, expo @176, timestamp @177. Hence the guards:
 * owner, discriminator, length >= 185 and |expo| <= 18.
 */
const AG = { price: 168, expo: 176, timestamp: 177, minLength: 185 } as const;

function checkedExpo(expo: number, a: RawAccount): number {
  if (Math.abs(expo) > 18) throw new AccountError(`Doves price ${a.pubkey}: exponent ${expo} is implausible`);
  return expo;
}

export function decodeDovesAgPrice(a: RawAccount): OraclePrice {
  checkAccount(a, 'Doves AgPriceFeed', { owner: DOVES_PROGRAM_ID, disc: AG_PRICE_FEED_DISCRIMINATOR, minLength: AG.minLength });
  const r = new ByteReader(a.data, `Doves AgPriceFeed ${a.pubkey}`);
  const raw = r.at(AG.price).u64('raw');
  const expo = checkedExpo(r.at(AG.expo).i8('expo'), a);
  return { usd: scaled(raw, expo), raw, expo, publishTime: Number(r.at(AG.timestamp).i64('publishTime')), kind: 'doves-ag' };
}

/** The legacy single-signer feed: price u64 @73, expo i8 @81, timestamp i64 @82 (IDL length 91). */
export function decodeDovesPriceFeed(a: RawAccount): OraclePrice {
  checkAccount(a, 'Doves PriceFeed', { owner: DOVES_PROGRAM_ID, disc: DOVES_PRICE_FEED_DISCRIMINATOR, minLength: 90 });
  const r = new ByteReader(a.data, `Doves PriceFeed ${a.pubkey}`);
  const raw = r.at(73).u64('raw');
  const expo = checkedExpo(r.at(81).i8('expo'), a);
  return { usd: scaled(raw, expo), raw, expo, publishTime: Number(r.at(82).i64('publishTime')), kind: 'doves' };
}
