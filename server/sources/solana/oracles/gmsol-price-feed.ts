/**
 * alpha (GMX-Solana) store-owned `PriceFeed` account (Chainlink Data Streams reports written by
 * the keeper): shared/design/solana/oracle-prices.md §2b. The price is USD per whole token with
 * its own `decimals`, independent of the token's decimals.
 */
import { AccountError, checkAccount, type RawAccount } from '../accounts/bytes.ts';
import { scaled, type OraclePrice } from './price.ts';
import { ALPHA_PROGRAM } from '../layout.ts';
import { ByteReader } from '../reader.ts';

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
  const r = new ByteReader(a.data, `alpha PriceFeed ${a.pubkey}`);
  const decimals = r.at(168).u8('decimals');
  if (decimals > 30) throw new AccountError(`alpha PriceFeed ${a.pubkey}: ${decimals} decimals`);
  const raw = r.at(184).u128('raw');
  return {
    address: a.pubkey,
    store: r.at(24).pubkey('store'),
    token: r.at(88).pubkey('token'),
    provider: r.at(9).u8('provider'),
    usd: scaled(raw, -decimals),
    raw,
    expo: -decimals,
    publishTime: Number(r.at(176).i64('publishTime')),
    kind: 'gmsol-feed',
    min: r.at(200).u128('min'),
    max: r.at(216).u128('max'),
  };
}
