/**
 * alpha (GMX-Solana) store-owned `PriceFeed` account (Chainlink Data Streams reports written by
 * the keeper): shared/design/solana/oracle-prices.md §2b. The price is USD per whole token with
 * its own `decimals`, independent of the token's decimals.
 */
import { AccountError, checkAccount, Reader, type RawAccount } from '../accounts/bytes.ts';
import { scaled, type OraclePrice } from './price.ts';
import { ALPHA_PROGRAM } from '../layout.ts';

/** Same value as the Doves PriceFeed: the owner check tells them apart. */
export const GMSOL_PRICE_FEED_DISCRIMINATOR = 'bd67fc179823f39c';
export const GMSOL_PRICE_FEED_SIZE = 488;

export interface GmsolPriceFeed extends OraclePrice {
  address: string;
  store: string;
  token: string;
  /** 0 = Chainlink Data Streams, the only kind the program lets one initialise */
  provider: number;
  /** bid / ask of the report, same scale as the price */
  min: bigint;
  max: bigint;
}

export function decodeGmsolPriceFeed(a: RawAccount): GmsolPriceFeed {
  checkAccount(a, 'alpha PriceFeed', { owner: ALPHA_PROGRAM, disc: GMSOL_PRICE_FEED_DISCRIMINATOR, minLength: 232 });
  const r = new Reader(a.data);
  const decimals = r.u8(168);
  if (decimals > 30) throw new AccountError(`alpha PriceFeed ${a.pubkey}: ${decimals} decimals`);
  const raw = r.u128(184);
  return {
    address: a.pubkey, store: r.pubkey(24), token: r.pubkey(88), provider: r.u8(9),
    usd: scaled(raw, -decimals), raw, expo: -decimals, publishTime: r.seconds(176), kind: 'gmsol-feed',
    min: r.u128(200), max: r.u128(216),
  };
}
