/**
 * alpha's market snapshots before polling, rebuilt from MarketStateUpdated events (laid out by hand
 * in Borsh order) inside transactions as the backfill sees them: no row until the pools a snapshot
 * needs have been seen, then one row per closed minute, stamped at the start of the next minute
 * with the state after that minute's last event, its rates from the account's config.
 */
import { describe, expect, it } from 'vitest';
import { decodeAlphaMarket } from '../../../server/sources/solana/accounts/alpha-market.ts';
import { AlphaMarketHistory } from '../../../server/sources/solana/history/alpha-history.ts';
import { concat, fromHex, key, le } from '../../helpers/solana-bytes.ts';
import { txOf } from '../../helpers/solana-golden.ts';
import { laid } from '../../helpers/solana-mock-accounts.ts';
import type { AlphaPrices } from '../../../server/sources/solana/alpha-events.ts';

const ALPHA = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const E20 = 10n ** 20n;
const u128 = (v: bigint) => le(v, 16);
const M0 = Date.UTC(2025, 5, 1, 12, 0);
const WSOL = key(3);

/** The market of test/sources/solana/solana-market-state.test.ts without its pools (the events bring them). */
const account = decodeAlphaMarket({
  pubkey: 'M',
  owner: ALPHA,
  data: laid(9176, [
    [0, fromHex('dbbed53700e3c69a')],
    [24, new TextEncoder().encode('SOL/USD[WSOL-USDC]')],
    [88, key(1).bytes],
    [120, WSOL.bytes],
    [152, WSOL.bytes],
    [184, key(4).bytes],
    [680, u128(5n * 10n ** 11n)],
    [712, u128(E20)],
    [728, u128(E20 / 2n)],
    [760, u128(10n ** 12n)],
    [792, u128(3n * 10n ** 12n)],
    [824, u128(E20)],
    [840, u128(2n * 10n ** 12n)],
    [856, u128(5n * 10n ** 12n)],
    [968, u128(E20)],
    [1208, u128(500_000n * E20)],
    [1224, u128(500_000n * E20)],
    [1992, u128(10_000n * 10n ** 9n)],
    [2008, u128(500_000n * 10n ** 6n)],
  ]),
});
const PRICES: AlphaPrices = { index: { min: 10n ** 13n, max: 10n ** 13n }, long: { min: 10n ** 13n, max: 10n ** 13n }, short: { min: 10n ** 14n, max: 10n ** 14n } };

const pool = (long: bigint, short: bigint) => concat(Uint8Array.of(0), new Uint8Array(15), u128(long), u128(short));
/** discriminator + body: rev, market token, pool kinds and pools, one Clocks (borrowing / funding clock), no OtherState */
function event(token: Uint8Array, pools: [number, Uint8Array][], clock: number): Uint8Array {
  return concat(
    fromHex('d5cd28f571e63a12'),
    le(1n, 8),
    token,
    le(pools.length, 4),
    Uint8Array.from(pools.map(([k]) => k)),
    le(pools.length, 4),
    ...pools.map(([, p]) => p),
    le(1, 4),
    new Uint8Array(8),
    le(1n, 8),
    le(clock, 8),
    le(clock, 8),
    le(clock, 8),
    new Uint8Array(16),
    new Uint8Array(24),
    le(0, 4),
  );
}

describe('alpha market state history from MarketStateUpdated', () => {
  it('writes one row per closed minute once the needed pools are known, with the rates of the account config', () => {
    const h = new AlphaMarketHistory(new Map([[account.marketTokenMint, account]]), new Map([[WSOL.b58, 9]]));
    const prices = () => PRICES;
    const s = M0 / 1000;
    // minute 0: open interest and borrowing factors arrive (longs 300k in 3,000 SOL, shorts 200k, then 100k)
    const first = event(
      key(1).bytes,
      [
        [3, pool(300_000n * E20, 0n)],
        [4, pool(0n, 200_000n * E20)],
        [5, pool(3_000n * 10n ** 9n, 0n)],
        [8, pool(5n * 10n ** 18n, 0n)],
      ],
      s,
    );
    expect(h.record(txOf(ALPHA, [first]), M0 + 10_000, prices)).toEqual([]);
    expect(h.record(txOf(ALPHA, [event(key(1).bytes, [[4, pool(0n, 100_000n * E20)]], s + 30)]), M0 + 30_000, prices)).toEqual([]);
    // an event of another market (not in the store's accounts) is ignored; a malformed one skipped
    expect(h.record(txOf(ALPHA, [event(key(9).bytes, [[3, pool(1n, 1n)]], s), concat(fromHex('d5cd28f571e63a12'), le(1n, 8))]), M0 + 40_000, prices)).toEqual([]);
    // minute 1: minute 0 is closed → its row, stamped at the start of minute 1
    const rows = h.record(txOf(ALPHA, [event(key(1).bytes, [[3, pool(350_000n * E20, 0n)]], s + 70)]), M0 + 70_000, prices);
    expect(rows).toHaveLength(1);
    const r = rows[0]!;
    expect(r).toMatchObject({ time: M0 + 60_000, protocol: 'alpha', market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]', index_price: 100, oi_long_usd: 300_000, oi_short_usd: 100_000 });
    // as in test/sources/solana/solana-market-state.test.ts: kink borrowing 1e12 /s for longs, funding 1e12 /s paid by longs;
    // the clocks were at minute 0 + 30 s, so the cumulative borrowing is 0.05 + 1e-8 × 30 s
    expect(r.borrowing_rate_long).toBeCloseTo(3.6e-5, 15);
    expect(r.funding_rate_raw).toBeCloseTo(3.6e-5, 15);
    expect(r.funding_rate_short).toBeCloseTo(3 * 3.6e-5 - 3.6e-6, 15);
    expect(r.cum_borrowing_long).toBeCloseTo(0.05 + 1e-8 * 30, 15);
    // a failed transaction folds nothing
    const failed = txOf(ALPHA, [event(key(1).bytes, [[3, pool(1n, 0n)]], s + 200)]);
    expect(h.record({ ...failed, meta: { ...failed.meta!, err: { InstructionError: [0, 'x'] } } }, M0 + 200_000, prices)).toEqual([]);
    // minute 3: minute 1 closed, with the 350k long OI of its event
    expect(h.record(txOf(ALPHA, [event(key(1).bytes, [[4, pool(0n, 100_000n * E20)]], s + 190)]), M0 + 190_000, prices)[0]).toMatchObject({ time: M0 + 120_000, oi_long_usd: 350_000 });
  });

  it('writes nothing for a market whose index decimals or prices are unknown', () => {
    const h = new AlphaMarketHistory(new Map([[account.marketTokenMint, account]]), new Map());
    const all = event(
      key(1).bytes,
      [
        [3, pool(1n, 0n)],
        [4, pool(0n, 1n)],
        [5, pool(1n, 0n)],
        [8, pool(1n, 1n)],
      ],
      M0 / 1000,
    );
    h.record(txOf(ALPHA, [all]), M0, () => PRICES);
    expect(h.record(txOf(ALPHA, [all]), M0 + 60_000, () => PRICES)).toEqual([]);
  });
});
