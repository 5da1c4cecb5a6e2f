/**
 * Golden vectors for the account and oracle decoders: every account is laid out by hand here, byte
 * by byte at the offsets of shared/design/solana/accounts.md and oracle-prices.md (not by an
 * encoder of ours), plus the real mainnet Market account of the fixture, which must decode to the
 * values the fixture gives. Also: the run-time checks (owner, discriminator, minimum length).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cumulativeBorrowingFactor, decodeAlphaMarket, openInterest, POOL, poolSide } from '../../../server/sources/solana/accounts/alpha-market.ts';
import { decodeAlphaPosition } from '../../../server/sources/solana/accounts/alpha-position.ts';
import { decodeStoreTokenMap, decodeTokenMap } from '../../../server/sources/solana/accounts/alpha-token-map.ts';
import { decodeBetaCustody } from '../../../server/sources/solana/accounts/beta-custody.ts';
import { decodeBetaPool } from '../../../server/sources/solana/accounts/beta-pool.ts';
import { decodeBetaPosition } from '../../../server/sources/solana/accounts/beta-position.ts';
import { AccountError } from '../../../server/sources/solana/accounts/bytes.ts';
import { decodeDovesAgPrice, decodeDovesPriceFeed } from '../../../server/sources/solana/oracles/doves-ag-price.ts';
import { decodeGmsolPriceFeed } from '../../../server/sources/solana/oracles/gmsol-price-feed.ts';
import { decodePythLegacy, decodePythPriceUpdate } from '../../../server/sources/solana/oracles/pyth-price-update.ts';
import { fromHex, key, keyBytes, le } from '../../helpers/solana-bytes.ts';

const ALPHA = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const BETA = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';
const DOVES = 'DoVEsk76QybCEHQGzkvYPWLQu9gzNoZZZt3TPiL597e';
const PYTH = 'rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ';

/** `size` zero bytes with each [offset, bytes] written in place (the hand layout). */
function laid(size: number, fields: [number, Uint8Array][]): Uint8Array {
  const out = new Uint8Array(size);
  for (const [at, bytes] of fields) out.set(bytes, at);
  return out;
}
const acct = (owner: string, data: Uint8Array, pubkey = 'Acct111111111111111111111111111111111111111') => ({ pubkey, owner, data });

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/solana/alpha-gmsol-sdk.json', import.meta.url), 'utf8')) as {
  market_account: { base64: string; decoded: Record<string, any> };
  position_account: { base64: string; decoded: Record<string, any> };
};

describe('alpha Market', () => {
  it('decodes the real mainnet account of the fixture to the values the fixture gives', () => {
    const d = fixture.market_account.decoded;
    const m = decodeAlphaMarket(acct(ALPHA, Buffer.from(fixture.market_account.base64, 'base64')));
    expect(m.name).toBe(d.name);
    expect([m.marketTokenMint, m.indexTokenMint, m.longTokenMint, m.shortTokenMint, m.store]).toEqual([d.market_token_mint, d.index_token_mint, d.long_token_mint, d.short_token_mint, d.store]);
    const oiL = m.pools[POOL.openInterestForLong]!;
    const oiS = m.pools[POOL.openInterestForShort]!;
    expect([oiL.long, oiL.short].map(String)).toEqual([d.open_interest_for_long_usd_e20.long_token_collateral, d.open_interest_for_long_usd_e20.short_token_collateral]);
    expect([oiS.long, oiS.short].map(String)).toEqual([d.open_interest_for_short_usd_e20.long_token_collateral, d.open_interest_for_short_usd_e20.short_token_collateral]);
    expect(openInterest(m, true)).toBe(4546500000000000000000n); // $45.465
    expect(openInterest(m, false)).toBe(29949435002942000000000n);
    expect(String(cumulativeBorrowingFactor(m, true))).toBe(d.borrowing_factor_e20.long);
    expect(String(cumulativeBorrowingFactor(m, false))).toBe(d.borrowing_factor_e20.short);
    const tb = m.pools[POOL.totalBorrowing]!;
    expect([String(tb.long), String(tb.short)]).toEqual([d.total_borrowing_usd_e20.long, d.total_borrowing_usd_e20.short]);
    expect([m.borrowingClock, m.fundingClock]).toEqual([d.clocks.borrowing, d.clocks.funding]);
    expect(String(m.fundingFactorPerSecond)).toBe(d.funding_factor_per_second_e20);
    const c = d.config_e20;
    expect(String(m.config.fundingFeeFactor)).toBe(c.funding_fee_factor);
    expect(String(m.config.fundingFeeExponent)).toBe(c.funding_fee_exponent);
    expect(String(m.config.minCollateralFactor)).toBe(c.min_collateral_factor);
    expect(String(m.config.liquidationFeeFactor)).toBe(c.liquidation_fee_factor);
    expect(String(m.config.borrowingFeeOptimalUsageFactorForLong)).toBe(c.borrowing_fee_optimal_usage_factor_for_long);
    expect(String(m.config.maxOpenInterestForLong)).toBe(c.max_open_interest_for_long_usd);
  });

  it('reads every field from its documented offset (hand-laid account)', () => {
    const E20 = 10n ** 20n;
    const data = laid(9176, [
      [0, fromHex('dbbed53700e3c69a')],
      [24, new TextEncoder().encode('SOL/USD[WSOL-USDC]')],
      [88, key(1).bytes],
      [120, key(2).bytes],
      [152, key(3).bytes],
      [184, key(4).bytes],
      [216, key(5).bytes],
      [248, le(0b10, 16)], // IgnoreOpenInterestForUsageFactor
      [376, le(E20, 16)],
      [392, le(E20 / 100n, 16)],
      [552, le((5n * E20) / 10000n, 16)],
      [568, le((7n * E20) / 10000n, 16)],
      [664, le(11n, 16)],
      [680, le(12n, 16)],
      [696, le(E20, 16)],
      [712, le(E20, 16)],
      [728, le((75n * E20) / 100n, 16)],
      [744, le((80n * E20) / 100n, 16)],
      [760, le(21n, 16)],
      [776, le(22n, 16)],
      [792, le(31n, 16)],
      [808, le(32n, 16)],
      [824, le(E20, 16)],
      [840, le(41n, 16)],
      [856, le(42n, 16)],
      [872, le(43n, 16)],
      [888, le(44n, 16)],
      [904, le(45n, 16)],
      [920, le(46n, 16)],
      [936, le(47n, 16)],
      [952, le(51n, 16)],
      [968, le(52n, 16)],
      [1208, le(61n, 16)],
      [1224, le(62n, 16)],
      [1256, le(E20 / 200n, 16)],
      [1960 + 0 * 64 + 32, le(1000n, 16)],
      [1960 + 0 * 64 + 48, le(2000n, 16)], // primary pool
      [2184, le(300n * E20, 16)],
      [2200, le(200n * E20, 16)], // OI for long: long / short collateral
      [2248, le(150n * E20, 16)],
      [2264, le(50n * E20, 16)],
      [2312, le(7n, 16)],
      [2328, le(8n, 16)],
      [2504, le(123n, 16)],
      [2520, le(456n, 16)],
      [2568, le(1n, 16)],
      [2584, le(2n, 16)],
      [2632, le(3n, 16)],
      [2648, le(4n, 16)],
      [2696, le(5n, 16)],
      [2712, le(6n, 16)],
      [2760, le(7n, 16)],
      [2776, le(8n, 16)],
      [4032, le(1_700_000_100, 8)],
      [4040, le(1_700_000_200, 8)],
      [4136, le(-99n, 16)],
    ]);
    const m = decodeAlphaMarket(acct(ALPHA, data));
    expect(m.name).toBe('SOL/USD[WSOL-USDC]');
    expect([m.marketTokenMint, m.indexTokenMint, m.longTokenMint, m.shortTokenMint, m.store]).toEqual([1, 2, 3, 4, 5].map((b) => key(b).b58));
    expect(m.config.flags).toBe(2n);
    expect(m.config.minCollateralValue).toBe(E20);
    expect([m.config.borrowingFeeFactorForLong, m.config.borrowingFeeFactorForShort]).toEqual([11n, 12n]);
    expect([m.config.borrowingFeeBaseFactorForLong, m.config.borrowingFeeAboveOptimalUsageFactorForShort]).toEqual([21n, 32n]);
    expect([m.config.fundingFeeFactor, m.config.fundingFeeMaxFactorPerSecond, m.config.fundingFeeMinFactorPerSecond]).toEqual([41n, 42n, 43n]);
    expect([m.config.fundingFeeIncreaseFactorPerSecond, m.config.fundingFeeDecreaseFactorPerSecond]).toEqual([44n, 45n]);
    expect([m.config.fundingFeeThresholdForStableFunding, m.config.fundingFeeThresholdForDecreaseFunding]).toEqual([46n, 47n]);
    expect([m.config.reserveFactor, m.config.openInterestReserveFactor, m.config.maxOpenInterestForLong, m.config.maxOpenInterestForShort]).toEqual([51n, 52n, 61n, 62n]);
    expect(m.config.minCollateralFactorForLiquidation).toBe(E20 / 200n);
    expect(openInterest(m, true)).toBe(500n * E20);
    expect(openInterest(m, false)).toBe(200n * E20);
    expect(m.pools[POOL.openInterestInTokensForLong]).toEqual({ isPure: false, long: 7n, short: 8n });
    expect([cumulativeBorrowingFactor(m, true), cumulativeBorrowingFactor(m, false)]).toEqual([123n, 456n]);
    expect(m.pools[POOL.fundingAmountPerSizeForShort]).toEqual({ isPure: false, long: 3n, short: 4n });
    expect(m.pools[POOL.claimableFundingAmountPerSizeForShort]).toEqual({ isPure: false, long: 7n, short: 8n });
    expect([m.borrowingClock, m.fundingClock, m.fundingFactorPerSecond]).toEqual([1_700_000_100, 1_700_000_200, -99n]);
  });

  it('reads a pure pool as the program does: the long field holds the total, halves on read', () => {
    const data = laid(9176, [
      [0, fromHex('dbbed53700e3c69a')],
      [1960 + 16, Uint8Array.of(1)],
      [1960 + 32, le(1001n, 16)],
      [2184 - 16, Uint8Array.of(1)],
      [2184, le(77n, 16)],
    ]);
    const m = decodeAlphaMarket(acct(ALPHA, data));
    expect([poolSide(m.pools[0]!, true), poolSide(m.pools[0]!, false)]).toEqual([501n, 500n]);
    expect(openInterest(m, true)).toBe(77n);
  });

  it('refuses another owner, another discriminator or a short account, and accepts appended bytes', () => {
    const data = Buffer.from(fixture.market_account.base64, 'base64');
    expect(() => decodeAlphaMarket(acct(BETA, data))).toThrow(AccountError);
    expect(() => decodeAlphaMarket(acct(ALPHA, Uint8Array.from([...fromHex('aabc8fe47a40f7d0'), ...data.subarray(8)])))).toThrow(/discriminator/);
    expect(() => decodeAlphaMarket(acct(ALPHA, data.subarray(0, 4151)))).toThrow(/at least 4152/);
    expect(decodeAlphaMarket(acct(ALPHA, Uint8Array.from([...data, 1, 2, 3]))).name).toBe('GMX/USD[WSOL-USDC]');
  });
});

describe('alpha Position', () => {
  it('decodes the fixture account (serialized by the program types) to its values', () => {
    const d = fixture.position_account.decoded;
    const p = decodeAlphaPosition(acct(ALPHA, Buffer.from(fixture.position_account.base64, 'base64')));
    expect(p.isLong).toBe(d.kind === 1);
    expect([p.createdAt, p.owner, p.marketToken, p.collateralToken]).toEqual([d.created_at, d.owner, d.market_token, d.collateral_token]);
    const s = d.state;
    expect([p.tradeId, p.increasedAt, p.decreasedAt]).toEqual([BigInt(s.trade_id), BigInt(s.increased_at), BigInt(s.decreased_at)]);
    expect([p.sizeInTokens, p.collateralAmount, p.sizeInUsd, p.borrowingFactor].map(String)).toEqual([s.size_in_tokens, s.collateral_amount, s.size_in_usd, s.borrowing_factor]);
    expect([p.fundingFeeAmountPerSize, p.longTokenClaimableFundingAmountPerSize, p.shortTokenClaimableFundingAmountPerSize].map(String)).toEqual([
      s.funding_fee_amount_per_size,
      s.long_token_claimable_funding_amount_per_size,
      s.short_token_claimable_funding_amount_per_size,
    ]);
  });

  it('reads a hand-laid short, and tells the colliding beta Position apart by its owner', () => {
    const data = laid(680, [
      [0, fromHex('aabc8fe47a40f7d0')],
      [10, key(9).bytes],
      [42, Uint8Array.of(2)],
      [48, le(1_700_000_000, 8)],
      [56, key(10).bytes],
      [88, key(11).bytes],
      [120, key(12).bytes],
      [152, le(77, 8)],
      [160, le(1_700_000_001, 8)],
      [176, le(1_700_000_002, 8)],
      [184, le(5n, 16)],
      [200, le(6n, 16)],
      [216, le(7n, 16)],
      [232, le(8n, 16)],
      [248, le(9n, 16)],
      [264, le(10n, 16)],
      [280, le(11n, 16)],
    ]);
    const p = decodeAlphaPosition(acct(ALPHA, data));
    expect(p).toMatchObject({ store: key(9).b58, isLong: false, owner: key(10).b58, marketToken: key(11).b58, collateralToken: key(12).b58, tradeId: 77n });
    expect([
      p.sizeInTokens,
      p.collateralAmount,
      p.sizeInUsd,
      p.borrowingFactor,
      p.fundingFeeAmountPerSize,
      p.longTokenClaimableFundingAmountPerSize,
      p.shortTokenClaimableFundingAmountPerSize,
    ]).toEqual([5n, 6n, 7n, 8n, 9n, 10n, 11n]);
    expect(() => decodeAlphaPosition(acct(BETA, data))).toThrow(/owner/);
    data[42] = 0;
    expect(() => decodeAlphaPosition(acct(ALPHA, data))).toThrow(/kind 0/);
  });
});

describe('alpha Store and TokenMap', () => {
  it('finds the token map and reads each token config at 8564 + 328 × index', () => {
    const store = decodeStoreTokenMap(
      acct(
        ALPHA,
        laid(4600, [
          [0, fromHex('8230f7f4b6bf1e1a')],
          [4568, key(20).bytes],
        ]),
      ),
    );
    expect(store).toBe(key(20).b58);
    const cfg = (i: number) => 8564 + 328 * i;
    const data = laid(8564 + 328 * 2, [
      [0, fromHex('6b2b1b18f53e917e')],
      [48, key(21).bytes],
      [48 + 32, Uint8Array.of(1)], // entry 0 → config 1
      [48 + 33, key(22).bytes],
      [48 + 33 + 32, Uint8Array.of(0)], // entry 1 → config 0
      [8496, le(2, 4)],
      [cfg(0), new TextEncoder().encode('USDC')],
      [cfg(0) + 33, Uint8Array.of(6)],
      [cfg(0) + 35, Uint8Array.of(0)],
      [cfg(0) + 292, le(60, 4)],
      [cfg(1), new TextEncoder().encode('XAU')],
      [cfg(1) + 33, Uint8Array.of(8)],
      [cfg(1) + 35, Uint8Array.of(1)],
      [cfg(1) + 36 + 64, key(7).bytes],
      [cfg(1) + 292, le(30, 4)],
    ]);
    const map = decodeTokenMap(acct(ALPHA, data));
    expect(map.get(key(21).b58)).toMatchObject({ name: 'XAU', decimals: 8, expectedProvider: 1, heartbeat: 30 });
    expect(map.get(key(21).b58)!.feeds[1]).toBe('07'.repeat(32));
    expect(map.get(key(22).b58)).toMatchObject({ name: 'USDC', decimals: 6, expectedProvider: 0, heartbeat: 60 });
  });
});

describe('beta Custody, Position and Pool', () => {
  const custodyBytes = (size = 1060) =>
    laid(size, [
      [0, fromHex('01b830515d833f91')],
      [8, key(1).bytes],
      [40, key(2).bytes],
      [104, Uint8Array.of(9)],
      [105, Uint8Array.of(0)],
      [106, key(3).bytes],
      [138, Uint8Array.of(2)],
      [151, le(1_250_000_000_000n, 8)],
      [175, le(5_000_000n, 8)],
      [222, le(1_000_000n, 8)],
      [230, le(400_000n, 8)],
      [238, le(11n, 8)],
      [246, le(12n, 8)],
      [254, le(13n, 8)],
      [262, le(123_456_789_012n, 16)],
      [278, le(1_700_000_000, 8)],
      [286, le(0, 8)],
      [296, le(6, 8)],
      [304, le(7, 8)],
      [320, key(4).bytes],
      [352, le(500, 8)],
      [360, le(15_000, 8)],
      [368, le(4_000, 8)],
      [376, le(800_000_000, 8)],
      [384, key(5).bytes],
      [1004, le(3_000_000_000n, 16)],
      [1020, le(1_000_000_000n, 16)],
    ]);

  it('reads a hand-laid custody at the IDL offsets, with or without trailing bytes', () => {
    for (const size of [1060, 1117, 2000]) {
      const c = decodeBetaCustody(acct(BETA, custodyBytes(size)));
      expect(c).toMatchObject({ pool: key(1).b58, mint: key(2).b58, decimals: 9, isStable: false, oracleAccount: key(3).b58, oracleType: 2, dovesOracle: key(4).b58, dovesAgOracle: key(5).b58 });
      expect([c.tradeImpactFeeScalar, c.maxLeverageBps, c.owned, c.locked, c.guaranteedUsd, c.globalShortSizes, c.globalShortAveragePrice]).toEqual([
        1_250_000_000_000n,
        5_000_000n,
        1_000_000n,
        400_000n,
        11n,
        12n,
        13n,
      ]);
      expect([c.cumulativeInterestRate, c.lastUpdate, c.hourlyFundingDbps, c.increasePositionBps, c.decreasePositionBps]).toEqual([123_456_789_012n, 1_700_000_000, 0n, 6n, 7n]);
      expect(c.jumpRate).toEqual({ minRateBps: 500n, maxRateBps: 15_000n, targetRateBps: 4_000n, targetUtilizationRate: 800_000_000n });
      expect([c.debt, c.borrowLendInterestsAccrued]).toEqual([3_000_000_000n, 1_000_000_000n]);
    }
    expect(() => decodeBetaCustody(acct(BETA, custodyBytes(1059)))).toThrow(/at least 1060/);
    expect(() => decodeBetaCustody(acct(ALPHA, custodyBytes()))).toThrow(/owner/);
  });

  it('reads a hand-laid position', () => {
    const data = laid(210, [
      [0, fromHex('aabc8fe47a40f7d0')],
      [8, key(1).bytes],
      [40, key(2).bytes],
      [72, key(3).bytes],
      [104, key(4).bytes],
      [136, le(1_700_000_000, 8)],
      [144, le(1_700_000_500, 8)],
      [152, Uint8Array.of(1)],
      [153, le(150_000_000n, 8)],
      [161, le(20_000_000_000n, 8)],
      [169, le(2_000_000_000n, 8)],
      [177, le(-5_000_000n, 8)],
      [185, le(987_654_321n, 16)],
      [201, le(42n, 8)],
      [209, Uint8Array.of(254)],
    ]);
    const p = decodeBetaPosition(acct(BETA, data));
    expect(p).toMatchObject({ owner: key(1).b58, pool: key(2).b58, custody: key(3).b58, collateralCustody: key(4).b58, openTime: 1_700_000_000, updateTime: 1_700_000_500, isLong: true });
    expect([p.price, p.sizeUsd, p.collateralUsd, p.realisedPnlUsd, p.cumulativeInterestSnapshot, p.lockedAmount]).toEqual([
      150_000_000n,
      20_000_000_000n,
      2_000_000_000n,
      -5_000_000n,
      987_654_321n,
      42n,
    ]);
    expect(() => decodeBetaPosition(acct(ALPHA, data))).toThrow(/owner/);
  });

  it('parses the pool name and custody count instead of assuming them', () => {
    const custodies = [1, 2, 3, 4, 5, 6].map((b) => key(b));
    const data = laid(260, [
      [0, fromHex('f19a6d0411b16dbc')],
      [8, le(4, 4)],
      [12, new TextEncoder().encode('Pool')],
      [16, le(6, 4)],
      ...custodies.map((k, i): [number, Uint8Array] => [20 + 32 * i, k.bytes]),
      [212, le(1_234_567_890_123n, 16)],
    ]);
    const pool = decodeBetaPool(acct(BETA, data));
    expect(pool).toEqual({ address: expect.any(String), name: 'Pool', custodies: custodies.map((k) => k.b58), aumUsd: 1_234_567_890_123n });
    data.set(le(1000, 4), 16);
    expect(() => decodeBetaPool(acct(BETA, data))).toThrow(/do not fit/);
  });
});

describe('oracle accounts', () => {
  it('Doves AgPriceFeed: price @168, expo @176, timestamp @177', () => {
    const data = laid(202, [
      [0, fromHex('70f98bd9d7d0f936')],
      [8, key(1).bytes],
      [168, le(12_500_000_000n, 8)],
      [176, le(-8, 1)],
      [177, le(1_780_000_000, 8)],
    ]);
    const p = decodeDovesAgPrice(acct(DOVES, data));
    expect(p).toEqual({ usd: 125, raw: 12_500_000_000n, expo: -8, publishTime: 1_780_000_000, kind: 'doves-ag' });
    data.set(le(-30, 1), 176);
    expect(() => decodeDovesAgPrice(acct(DOVES, data))).toThrow(/exponent/);
    expect(() => decodeDovesAgPrice(acct(DOVES, data.subarray(0, 184)))).toThrow(/at least 185/);
  });

  it('Doves legacy PriceFeed: price @73, expo @81, timestamp @82', () => {
    const data = laid(91, [
      [0, fromHex('bd67fc179823f39c')],
      [73, le(98_580_000n, 8)],
      [81, le(-6, 1)],
      [82, le(1_780_000_001, 8)],
    ]);
    expect(decodeDovesPriceFeed(acct(DOVES, data))).toMatchObject({ usd: 98.58, publishTime: 1_780_000_001 });
    expect(() => decodeGmsolPriceFeed(acct(DOVES, laid(488, [[0, fromHex('bd67fc179823f39c')]])))).toThrow(/owner/); // same discriminator as GMX's
  });

  it('Pyth PriceUpdateV2, Full (tag 1) and Partial (tag 0: later fields one byte on)', () => {
    const feed = fromHex('ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d');
    const full = laid(134, [
      [0, fromHex('22f123639d7ef4cd')],
      [8, key(1).bytes],
      [40, Uint8Array.of(1)],
      [41, feed],
      [73, le(16_751_500_000n, 8)],
      [81, le(7n, 8)],
      [89, le(-8, 4)],
      [93, le(1_749_600_000, 8)],
    ]);
    expect(decodePythPriceUpdate(acct(PYTH, full))).toMatchObject({
      usd: 167.515,
      expo: -8,
      publishTime: 1_749_600_000,
      full: true,
      conf: 7n,
      feedId: 'ef0d8b6fda2ceba41da15d4095d1da392a0d2f8ed0c6c7bc0f4cfac8c280b56d',
    });
    const partial = laid(134, [
      [0, fromHex('22f123639d7ef4cd')],
      [40, Uint8Array.of(0)],
      [41, Uint8Array.of(3)],
      [42, feed],
      [74, le(9_858_000_000n, 8)],
      [90, le(-8, 4)],
      [94, le(1_780_000_000, 8)],
    ]);
    expect(decodePythPriceUpdate(acct(PYTH, partial))).toMatchObject({ usd: 98.58, publishTime: 1_780_000_000, full: false });
  });

  it('legacy Pyth v2 price account: magic, expo @20, timestamp @96, aggregate price @208 and status @224', () => {
    const data = laid(3312, [
      [0, le(0xa1b2c3d4, 4)],
      [4, le(2, 4)],
      [8, le(3, 4)],
      [20, le(-5, 4)],
      [96, le(1_700_000_000, 8)],
      [208, le(12_345_678n, 8)],
      [224, le(1, 4)],
    ]);
    expect(decodePythLegacy(acct('FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH', data))).toMatchObject({ usd: 123.45678, publishTime: 1_700_000_000 });
    data.set(le(0, 4), 224);
    expect(() => decodePythLegacy(acct('FsJ3A3u2vn5cTVofAjvy6y5kwABJAqYWpe4975bi2epH', data))).toThrow(/not Trading/);
  });

  it('GMX-Solana PriceFeed: decimals @168, ts @176, price / bid / ask @184 / 200 / 216', () => {
    const data = laid(488, [
      [0, fromHex('bd67fc179823f39c')],
      [9, Uint8Array.of(0)],
      [24, key(1).bytes],
      [56, key(2).bytes],
      [88, keyBytes('So11111111111111111111111111111111111111112')],
      [168, Uint8Array.of(8)],
      [176, le(1_780_000_000, 8)],
      [184, le(14_822_369_000n, 16)],
      [200, le(14_822_000_000n, 16)],
      [216, le(14_823_000_000n, 16)],
    ]);
    const f = decodeGmsolPriceFeed(acct(ALPHA, data));
    expect(f).toMatchObject({
      store: key(1).b58,
      token: 'So11111111111111111111111111111111111111112',
      provider: 0,
      usd: 148.22369,
      expo: -8,
      publishTime: 1_780_000_000,
      min: 14_822_000_000n,
      max: 14_823_000_000n,
    });
  });
});
