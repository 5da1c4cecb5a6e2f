/**
 * Pyth's sponsored push feeds: the PriceUpdateV2 account the push oracle program keeps for a feed
 * id, at PDA([shard_id u16 LE, feed_id 32 bytes], push oracle program) (shared/design/solana/
 * oracle-prices.md §3b; shard 0 is the one Pyth sponsors, §3c). alpha tokens whose expected
 * provider is Pyth have no store PriceFeed account: this is where their price persists.
 */
import { address, getProgramDerivedAddress } from '@solana/addresses';
import { AccountError, type RawAccount } from '../accounts/bytes.ts';
import { decodePythPriceUpdate, type PythPrice } from './pyth-price-update.ts';

export const PYTH_PUSH_ORACLE_ID = 'pythWSnswVUd12oZpeFP8e9CVaEqJg25g1Vtc2biRsT';

/** The push-feed account of a feed id (64 hex digits) in a shard (default 0, the sponsored one). */
export async function pythPushFeedAddress(feedIdHex: string, shard = 0): Promise<string> {
  if (!/^[0-9a-f]{64}$/i.test(feedIdHex)) throw new Error(`Pyth feed id ${feedIdHex}: not 32 bytes of hex`);
  if (!Number.isInteger(shard) || shard < 0 || shard > 0xffff) throw new Error(`Pyth shard ${shard}: not a u16`);
  const shardLe = Uint8Array.of(shard & 0xff, shard >> 8);
  const [pda] = await getProgramDerivedAddress({ programAddress: address(PYTH_PUSH_ORACLE_ID), seeds: [shardLe, Buffer.from(feedIdHex, 'hex')] });
  return pda;
}

/**
 * A push-feed account's price, checked as the program checks it before use (its
 * `get_price_no_older_than`): the feed id is the one expected and the update is fully verified.
 * Freshness is the caller's (it knows the clock).
 */
export function decodePythPushFeed(a: RawAccount, feedIdHex: string): PythPrice {
  const p = decodePythPriceUpdate(a);
  if (p.feedId.toLowerCase() !== feedIdHex.toLowerCase()) throw new AccountError(`Pyth push feed ${a.pubkey}: feed id ${p.feedId}, expected ${feedIdHex}`);
  if (!p.full) throw new AccountError(`Pyth push feed ${a.pubkey}: only partially verified`);
  return p;
}
