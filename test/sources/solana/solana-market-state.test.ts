/**
 * The rate models and position state computed from accounts, against numbers worked out by hand
 * here (each expected value's arithmetic is written next to it): alpha's kink and fallback
 * borrowing, non-adaptive and adaptive funding, a position's unsettled borrowing, funding and
 * claimable funding and its liquidation price; beta's jump and linear borrow rates, borrow fee and
 * liquidation price. Accounts are laid out by hand at the documented offsets.
 */
import { describe, expect, it } from 'vitest';
import { decodeAlphaMarket, type AlphaMarketAccount } from '../../../server/sources/solana/accounts/alpha-market.ts';
import { decodeAlphaPosition } from '../../../server/sources/solana/accounts/alpha-position.ts';
import { decodeBetaCustody } from '../../../server/sources/solana/accounts/beta-custody.ts';
import { decodeBetaPosition } from '../../../server/sources/solana/accounts/beta-position.ts';
import { alphaPositionState } from '../../../server/sources/solana/state/alpha-position-state.ts';
import { alphaHourlyRates, borrowingFactorPerSecond, fundingFactorPerSecond } from '../../../server/sources/solana/state/alpha-rates.ts';
import { betaPositionState } from '../../../server/sources/solana/state/beta-position-state.ts';
import { cumulativeInterestAt, hourlyBorrowRate, utilization } from '../../../server/sources/solana/state/beta-rates.ts';
import { advanceFunding } from '../../../server/sources/solana/state/funding-integral.ts';
import { applyMarketStateUpdated, decodeMarketStateUpdated } from '../../../server/sources/solana/history/market-state-updated.ts';
import { cumulativeBorrowingFactor, openInterest } from '../../../server/sources/solana/accounts/alpha-market.ts';
import { fromHex, key, le } from '../../helpers/solana-bytes.ts';
import type { AlphaPrices } from '../../../server/sources/solana/alpha-events.ts';

const ALPHA = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const BETA = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';
const E20 = 10n ** 20n;
const WSOL = key(3);
const USDC = key(4);
const NOW = 1_780_000_000;

function laid(size: number, fields: [number, Uint8Array][]): Uint8Array {
  const out = new Uint8Array(size);
  for (const [at, bytes] of fields) out.set(bytes, at);
  return out;
}
const u128 = (v: bigint) => le(v, 16);

/**
 * A SOL/USD[WSOL-USDC] market: 10,000 WSOL and 500,000 USDC in the pool, $300k long OI (3,000 SOL)
 * and $100k short OI, max long OI $500k; long borrowing by the kink model (optimal 0.5, base 1e-8/s,
 * above-optimal 3e-8/s), short by the fallback (factor 5e-9/s); funding factor 2e-8/s, exponent 1.
 */
function market(extra: [number, Uint8Array][] = []): AlphaMarketAccount {
  return decodeAlphaMarket({
    pubkey: 'Market1111111111111111111111111111111111111',
    owner: ALPHA,
    data: laid(9176, [
      [0, fromHex('dbbed53700e3c69a')],
      [24, new TextEncoder().encode('SOL/USD[WSOL-USDC]')],
      [88, key(1).bytes],
      [120, WSOL.bytes],
      [152, WSOL.bytes],
      [184, USDC.bytes],
      [216, key(5).bytes],
      [376, u128(E20)],
      [392, u128(E20 / 100n)],
      [552, u128((5n * E20) / 10_000n)],
      [568, u128((7n * E20) / 10_000n)],
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
      [1256, u128(E20 / 100n)],
      [1960 + 32, u128(10_000n * 10n ** 9n)],
      [1960 + 48, u128(500_000n * 10n ** 6n)],
      [2184, u128(300_000n * E20)],
      [2264, u128(100_000n * E20)],
      [2312, u128(3_000n * 10n ** 9n)],
      [2504, u128(5n * 10n ** 18n)],
      [2520, u128(0n)],
      [2568, u128(2n * 10n ** 15n)],
      [2696, u128(3n * 10n ** 14n)],
      [2712, u128(2n * 10n ** 12n)],
      [4032, le(NOW - 100, 8)],
      [4040, le(NOW - 100, 8)],
      ...extra,
    ]),
  });
}

// WSOL $100 (9 decimals): unit price 100 × 1e20 / 1e9 = 1e13; USDC $1 (6 decimals): 1e14
const PRICES: AlphaPrices = { index: { min: 10n ** 13n, max: 10n ** 13n }, long: { min: 10n ** 13n, max: 10n ** 13n }, short: { min: 10n ** 14n, max: 10n ** 14n } };

describe('alpha rates from the Market account', () => {
  it('borrowing: the kink model for longs, the fallback for shorts', () => {
    const m = market();
    // longs: reserved = 3e12 tokens × 1e13 = $300k; pool = 1e13 units × 1e13 = $1M; reserve usage 0.3,
    // OI usage 300k / 500k = 0.6 → usage 0.6; 0.6 × 1e12 + (3e12 − 1e12) × (0.6 − 0.5) / 0.5 = 6e11 + 4e11
    expect(borrowingFactorPerSecond(m, true, PRICES)).toBe(10n ** 12n);
    // shorts: optimal 0 → 5e11 × ($100k / $500k) = 1e11
    expect(borrowingFactorPerSecond(m, false, PRICES)).toBe(10n ** 11n);
    // with SkipBorrowingFeeForSmallerSide (flag bit 0) the smaller short side pays nothing
    expect(borrowingFactorPerSecond(market([[248, u128(1n)]]), false, PRICES)).toBe(0n);
  });

  it('funding, non-adaptive: factor × |L − S| / (L + S), capped, paid by the larger side', () => {
    // 2e12 × 200k / 400k = 1e12 per second, longs pay
    expect(fundingFactorPerSecond(market(), 0)).toEqual({ perSecond: 10n ** 12n, longsPay: true });
    const r = alphaHourlyRates(market(), PRICES, NOW);
    expect(r.fundingRaw).toBeCloseTo(3.6e-5, 15); // 1e12 × 3600 / 1e20
    expect(r.fundingLong).toBeCloseTo(-3.6e-5, 15);
    expect(r.fundingShort).toBeCloseTo(3.6e-5 * 3, 15); // × payer OI / receiver OI = 300k / 100k
    expect(r.borrowingLong).toBeCloseTo(3.6e-5, 15);
    expect(r.borrowingShort).toBeCloseTo(3.6e-6, 15);
    // capped at the max factor per second (5e12): factor 2e13 would give 1e13
    expect(fundingFactorPerSecond(market([[840, u128(2n * 10n ** 13n)]]), 0).perSecond).toBe(5n * 10n ** 12n);
    // nothing while a side is empty
    expect(fundingFactorPerSecond(market([[2264, u128(0n)]]), 0).perSecond).toBe(0n);
  });

  it('funding, adaptive: the stored factor moves by the configured steps over the elapsed time', () => {
    // increase 2e10/s, decrease 1e9/s, min 1e11, stored +1e12; diff factor = 0.5
    const adaptive = (stable: bigint, decrease: bigint) =>
      market([
        [872, u128(10n ** 11n)],
        [888, u128(2n * 10n ** 10n)],
        [904, u128(10n ** 9n)],
        [920, u128(stable)],
        [936, u128(decrease)],
        [4136, u128(10n ** 12n)],
      ]);
    // 0.5 > stable 0.3 → increase by 0.5 × 2e10 × 100 s = 1e12 → 2e12
    expect(fundingFactorPerSecond(adaptive((3n * E20) / 10n, E20 / 10n), 100)).toEqual({ perSecond: 2n * 10n ** 12n, longsPay: true });
    // 0.5 < decrease threshold 0.6 → decrease by 1e9 × 100 = 1e11 → 9e11
    expect(fundingFactorPerSecond(adaptive((7n * E20) / 10n, (6n * E20) / 10n), 100)).toEqual({ perSecond: 9n * 10n ** 11n, longsPay: true });
    // in between → unchanged; then bounded to [min, max]
    expect(fundingFactorPerSecond(adaptive((7n * E20) / 10n, E20 / 10n), 100)).toEqual({ perSecond: 10n ** 12n, longsPay: true });
  });

  it('integrates funding paid and earned between snapshots at the rates in force', () => {
    const a = advanceFunding(undefined, 0, -0.001, 0.003);
    const b = advanceFunding(a, 2 * 3_600_000, -0.002, 0.004);
    expect([b.paidLong, b.earnedShort, b.paidShort, b.earnedLong]).toEqual([0.002, 0.006, 0, 0]);
    const c = advanceFunding(b, 3 * 3_600_000, 0, 0);
    expect([c.paidLong, c.earnedShort]).toEqual([0.004, 0.01]);
  });
});

describe('alpha position state', () => {
  it('unsettled borrowing, funding, claimable funding and the liquidation price of a WSOL-collateral long', () => {
    const m = market();
    // $30k long, 300 SOL, 50 WSOL collateral; snapshots: borrowing 0.04, funding 1e15, claimable long 2e14, short 1e12
    const p = decodeAlphaPosition({
      pubkey: 'Pos1111111111111111111111111111111111111111',
      owner: ALPHA,
      data: laid(680, [
        [0, fromHex('aabc8fe47a40f7d0')],
        [10, key(5).bytes],
        [42, Uint8Array.of(1)],
        [56, key(9).bytes],
        [88, key(1).bytes],
        [120, WSOL.bytes],
        [184, u128(300n * 10n ** 9n)],
        [200, u128(50n * 10n ** 9n)],
        [216, u128(30_000n * E20)],
        [232, u128(4n * 10n ** 18n)],
        [248, u128(10n ** 15n)],
        [264, u128(2n * 10n ** 14n)],
        [280, u128(10n ** 12n)],
      ]),
    });
    const rates = alphaHourlyRates(m, PRICES, NOW);
    const s = alphaPositionState(p, m, PRICES, rates, NOW, 9);
    expect(s.sizeMicros).toBe(30_000_000_000n);
    expect(s.collateralMicros).toBe(5_000_000_000n); // 50 WSOL × $100
    // (0.05 + 1e12 × 100 s / 1e20 − 0.04) × $30k = 0.010001 × 30k = $300.03
    expect(s.borrowingMicros).toBe(300_030_000n);
    // 30k × 1e20 × 1e15 / 1e30 = 3e9 units = 3 WSOL = $300, + pending 30k × 1e12 × 100 / 1e20 = $0.03
    expect(s.fundingMicros).toBe(300_030_000n);
    // long token: 30k × 1e20 × 1e14 / 1e30 = 0.3 WSOL = $30; short token: 3e6 units = 3 USDC; longs pay: no pending
    expect(s.claimableMicros).toBe(33_000_000n);
    // collateral is the index token (WSOL): (thr + S + F) / (q + T) with thr = max(30k × 1 %, $1) = 300,
    // F = close fee 30k × 0.05 % (closing improves the balance) + 300.03 + 300.03 = 615.06
    expect(s.liquidationPrice).toBeCloseTo((300 + 30_000 + 615.06) / 350, 9);
  });
});

describe('beta rates and position state from the Custody and Position accounts', () => {
  const custody = (dbps = 0n, lastUpdate = NOW) =>
    decodeBetaCustody({
      pubkey: 'Cust111111111111111111111111111111111111111',
      owner: BETA,
      data: laid(1060, [
        [0, fromHex('01b830515d833f91')],
        [151, le(1_250_000_000_000_000n, 8)],
        [175, le(5_000_000n, 8)],
        [222, le(1_000_000n, 8)],
        [230, le(400_000n, 8)],
        [262, le(123_456_789_012n, 16)],
        [278, le(lastUpdate, 8)],
        [286, le(dbps, 8)],
        [304, le(7n, 8)],
        [352, le(500n, 8)],
        [360, le(15_000n, 8)],
        [368, le(4_000n, 8)],
        [376, le(800_000_000n, 8)],
        [1004, le(3_000_000_000n, 16)],
        [1020, le(1_000_000_000n, 16)],
      ]),
    });

  it('jump model: utilisation with the debt, below target', () => {
    const c = custody();
    // debt = ceil((3e9 − 1e9) / 1e9) = 2 → locked 400,002 / owned 1,000,002 → util 400001199 (×1e9)
    expect(utilization(c)).toBe(400_001_199n);
    // yearly = (ceil(3500 × 400001199 / 8e8) + 500) × 1e9 / 1e4 = (1751 + 500) × 1e5 = 225,100,000; hourly = / 8760
    expect(hourlyBorrowRate(c)).toBe(25_696n);
  });

  it('linear model when hourly_funding_dbps is set, and accrual of the interest index since its update', () => {
    // 10 dbps → 10 × 1e9 / 1e5 = 1e5 per hour at full use; × 400,002 / 1,000,002 rounded up = 40,001
    expect(hourlyBorrowRate(custody(10n))).toBe(40_001n);
    // an hour after the last update the index grew by the hourly rate
    expect(cumulativeInterestAt(custody(10n, NOW - 3600), NOW)).toBe(123_456_789_012n + 40_001n);
  });

  it('borrow fee and liquidation price of a long', () => {
    const c = custody();
    const p = decodeBetaPosition({
      pubkey: 'BPos111111111111111111111111111111111111111',
      owner: BETA,
      data: laid(210, [
        [0, fromHex('aabc8fe47a40f7d0')],
        [152, Uint8Array.of(1)],
        [153, le(150_000_000n, 8)],
        [161, le(20_000_000_000n, 8)],
        [169, le(2_000_000_000n, 8)],
        [185, le(123_455_789_012n, 16)],
      ]),
    });
    const s = betaPositionState(p, c, c, NOW);
    // Δ index 1,000,000 × $20,000 / 1e9 = $20
    expect(s.borrowingMicros).toBe(20_000_000n);
    // impact ceil(2e10 × 1e4 / 1.25e15) = 1 bps; close fee 2e10 × (7 + 1) / 1e4 = $16; max loss = 2e10 × 1e4 / 5e6 ($40) + 16 + 20 = $76
    // room = 2000 − 76 = 1924 → distance 1924 × 150 / 20000 = 14.43 below entry
    expect(s.liquidationPrice).toBe(135.57);
  });
});

describe('alpha MarketStateUpdated (history of market state)', () => {
  /** rev 7, market token, kinds [3, 8] with their pools, one Clocks, one OtherState: laid out in Borsh order */
  const body = (kinds = [3, 8], pools = 2) => {
    const parts: Uint8Array[] = [
      le(7n, 8),
      key(1).bytes,
      le(kinds.length, 4),
      Uint8Array.from(kinds),
      le(pools, 4),
      // kind 3 (open interest for long): impure, long-collateral $400k, short-collateral $50k
      Uint8Array.of(0),
      new Uint8Array(15),
      u128(400_000n * E20),
      u128(50_000n * E20),
      // kind 8 (borrowing factor): long 0.07, short 0.002
      Uint8Array.of(0),
      new Uint8Array(15),
      u128(7n * 10n ** 18n),
      u128(2n * 10n ** 17n),
      le(1, 4),
      new Uint8Array(8),
      le(3n, 8),
      le(NOW - 10, 8),
      le(NOW - 20, 8),
      le(NOW - 30, 8),
      new Uint8Array(16),
      new Uint8Array(24),
      le(1, 4),
      new Uint8Array(16),
      le(4n, 8),
      le(1234n, 8),
      le(1n, 8),
      le(2n, 8),
      u128(-(5n * 10n ** 11n)),
      new Uint8Array(256),
    ];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };

  it('decodes the updated pools, clocks and funding factor, and applies them to a market', () => {
    const ev = decodeMarketStateUpdated(body());
    expect(ev.rev).toBe(7n);
    expect(ev.marketToken).toBe(key(1).b58);
    expect(ev.pools.map((p) => p.kind)).toEqual([3, 8]);
    expect(ev.clocks).toEqual({ borrowing: NOW - 20, funding: NOW - 30 });
    expect(ev.other).toEqual({ tradeCount: 1234n, fundingFactorPerSecond: -(5n * 10n ** 11n) });
    const before = market();
    const after = applyMarketStateUpdated(before, ev);
    expect(openInterest(after, true)).toBe(450_000n * E20);
    expect(openInterest(after, false)).toBe(openInterest(before, false)); // not in the event: unchanged
    expect([cumulativeBorrowingFactor(after, true), cumulativeBorrowingFactor(after, false)]).toEqual([7n * 10n ** 18n, 2n * 10n ** 17n]);
    expect([after.borrowingClock, after.fundingClock, after.fundingFactorPerSecond]).toEqual([NOW - 20, NOW - 30, -(5n * 10n ** 11n)]);
    expect(before.borrowingClock).toBe(NOW - 100); // the input is left as it was
  });

  it('refuses a body whose lengths do not fit', () => {
    expect(() => decodeMarketStateUpdated(body([3], 2))).toThrow(/1 pool kinds but 2 pools/);
    expect(() => decodeMarketStateUpdated(body([3, 16]))).toThrow(/out of range/);
    expect(() => decodeMarketStateUpdated(body().subarray(0, 300))).toThrow(/runs past/);
  });
});
