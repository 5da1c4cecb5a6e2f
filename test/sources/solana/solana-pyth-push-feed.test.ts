/**
 * Pyth sponsored push-feed addresses: PDA([shard u16 LE, feed id], push oracle program), against
 * the shard-0 accounts Pyth publishes (shared/design/solana/oracle-prices.md §3c), and the checks
 * made on the account's PriceUpdateV2 before its price is used.
 */
import { describe, expect, it } from 'vitest';
import { decodePythPushFeed, pythPushFeedAddress } from '../../../server/sources/solana/oracles/pyth-push-feed.ts';
import { PYTH_RECEIVER_ID } from '../../../server/sources/solana/oracles/pyth-price-update.ts';
import type { AlphaTokenConfig } from '../../../server/sources/solana/accounts/alpha-token-map.ts';
import { pythFeedsOf } from '../../../server/sources/solana/state/chain-reads.ts';
import { alphaTokenFeed, feedUnitPrice } from '../../../server/sources/solana/state/prices.ts';

/** oracle-prices.md §3c: feed id → shard-0 account */
const SHARD0: [string, string, string][] = [
  ['SOL/USD', 'ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d', '7UVimffxr9ow1uXYxsr4LHAcV58mLzhmwaeKvJ1pjLiE'],
  ['BTC/USD', 'e62df6c8b4a85fe1a67db44dc12de5db330f7ac66b72dc658afedf0f4a415b43', '4cSM2e6rvbGQUFiJbqytoVMi5GgghSMr8LwVrT9VPSPo'],
  ['ETH/USD', 'ff61491a931112ddf1bd8147cd1b641375f79f5825126d665480874634fd0ace', '42amVS4KgzR9rA28tkVYqVXjq9Qa8dcZQMbH5EYFX6XC'],
  ['USDC/USD', 'eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a', 'Dpw1EAVrSB1ibxiDQyTAW6Zip3J4Btk2x4SgApQCeFbX'],
  ['USDT/USD', '2b89b9dc8fdf9f34709a5b106b472f0f39bb6ca9ce04b0fd7f2e971688e2e53b', 'HT2PLQBcG5EiCcNSaMHAjSgd9F98ecpATbk4Sk5oYuM'],
];

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const le = (v: bigint | number, n: number) => {
  const out = new Uint8Array(n);
  let x = BigInt.asUintN(n * 8, BigInt(v));
  for (let i = 0; i < n; i++) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
};

/** A Full PriceUpdateV2 laid out from §3a's offsets: feed id @41, price @73, conf @81, exponent @89, publish_time @93. */
function priceUpdate(feedId: string, level: 'full' | 'partial' = 'full', publishTime = 1_749_600_000): Uint8Array {
  const s = level === 'full' ? 0 : 1;
  const d = new Uint8Array(134);
  d.set(hex('22f123639d7ef4cd'), 0);
  if (level === 'full') d[40] = 1;
  else {
    d[40] = 0;
    d[41] = 3;
  }
  d.set(hex(feedId), 41 + s);
  d.set(le(16_751_500_000n, 8), 73 + s);
  d.set(le(9_000_000n, 8), 81 + s);
  d.set(le(-8, 4), 89 + s);
  d.set(le(publishTime, 8), 93 + s);
  return d;
}

describe('Pyth sponsored push feeds', () => {
  it.each(SHARD0)('derives the shard-0 account of %s', async (_, feedId, account) => {
    expect(await pythPushFeedAddress(feedId)).toBe(account);
    expect(await pythPushFeedAddress(feedId.toUpperCase())).toBe(account);
  });

  it('another shard is another account, and a malformed id or shard is refused', async () => {
    const [, sol, account] = SHARD0[0]!;
    const shard1 = await pythPushFeedAddress(sol, 1);
    expect(shard1).not.toBe(account);
    expect(shard1).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    await expect(pythPushFeedAddress(sol.slice(2))).rejects.toThrow(/not 32 bytes/);
    await expect(pythPushFeedAddress(sol, 65_536)).rejects.toThrow(/not a u16/);
  });

  it('reads a push feed only when its feed id is the expected one and it is fully verified', () => {
    const [, sol, account] = SHARD0[0]!;
    const [, btc] = SHARD0[1]!;
    const acc = (data: Uint8Array) => ({ pubkey: account, data, owner: PYTH_RECEIVER_ID });
    expect(decodePythPushFeed(acc(priceUpdate(sol)), sol)).toMatchObject({ usd: 167.515, raw: 16_751_500_000n, expo: -8, conf: 9_000_000n, publishTime: 1_749_600_000, full: true });
    expect(() => decodePythPushFeed(acc(priceUpdate(btc)), sol)).toThrow(/feed id/);
    expect(() => decodePythPushFeed(acc(priceUpdate(sol, 'partial')), sol)).toThrow(/partially verified/);
    expect(() => decodePythPushFeed({ ...acc(priceUpdate(sol)), owner: 'pythWSnswVUd12oZpeFP8e9CVaEqJg25g1Vtc2biRsT' }, sol)).toThrow(/owner/);
  });

  it('finds the push feed of every Pyth-priced token of the token map, and prefers it to a store PriceFeed while fresh', async () => {
    const [, sol, solAccount] = SHARD0[0]!;
    const zero = '0'.repeat(64);
    const token = (mint: string, expectedProvider: number, pyth: string): AlphaTokenConfig => ({ mint, name: mint, decimals: 9, expectedProvider, feeds: [zero, pyth, zero, zero], heartbeat: 60 });
    const tokens = new Map([
      ['WSOL', token('WSOL', 1, sol)],
      ['USDC', token('USDC', 0, SHARD0[3]![1])],
      ['XYZ', token('XYZ', 1, zero)],
    ]);
    const feeds = await pythFeedsOf(tokens);
    // only a token whose expected provider is Pyth and whose feeds[1] is set
    expect([...feeds]).toEqual([['WSOL', { address: solAccount, feedId: sol }]]);

    const now = 1_749_600_030;
    // a store PriceFeed of WSOL at $170 (8 decimals), 5 s old: offsets of oracle-prices.md §2b
    const store = new Uint8Array(488);
    store.set(hex('bd67fc179823f39c'), 0);
    store.set(Buffer.from([...Array(32)].map(() => 7)), 24); // store key: not checked here
    store[168] = 8;
    store.set(le(now - 5, 8), 176);
    for (const at of [184, 200, 216]) store.set(le(17_000_000_000n, 16), at);
    const accounts = (push: Uint8Array | null) =>
      new Map<string, { pubkey: string; data: Uint8Array; owner: string } | null>([
        [solAccount, push && { pubkey: solAccount, data: push, owner: PYTH_RECEIVER_ID }],
        ['store-feed', { pubkey: 'store-feed', data: store, owner: 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo' }],
      ]);
    const d = { alphaFeeds: new Map([['WSOL', ['store-feed']]]), alphaPythFeeds: feeds };
    const pick = (push: Uint8Array | null) => {
      const a = accounts(push);
      return alphaTokenFeed('WSOL', d, (k) => a.get(k) ?? null, now);
    };

    // fresh push feed (30 s): $167.515 ± 0.09, min / max as the program makes them
    const fromPyth = pick(priceUpdate(sol));
    expect(fromPyth).toMatchObject({ kind: 'pyth', usd: 167.515, min: 16_742_500_000n, max: 16_760_500_000n, publishTime: 1_749_600_000 });
    // unit price per smallest unit (9 decimals) × 1e20: 167.425 × 1e11 … 167.605 × 1e11
    expect(feedUnitPrice(fromPyth, token('WSOL', 1, sol), now)).toEqual({ min: 16_742_500_000_000n, max: 16_760_500_000_000n });
    // a stale push feed (10 min) gives way to the fresh store feed; no push account: the store feed
    expect(pick(priceUpdate(sol, 'full', now - 600))).toMatchObject({ kind: 'gmsol-feed', usd: 170 });
    expect(pick(null)).toMatchObject({ kind: 'gmsol-feed', usd: 170 });
    // another feed's update at the derived address is not taken
    expect(pick(priceUpdate(SHARD0[1]![1]))).toMatchObject({ kind: 'gmsol-feed' });
  });
});
