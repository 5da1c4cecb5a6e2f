/**
 * alpha (GMX-Solana) `Market` account (zero-copy, repr C): the fields market snapshots and
 * position polls read. Offsets: shared/design/solana/accounts.md §1 (from the program's IDL and
 * Rust source). USD values and factors carry 20 decimals.
 */
import { checkAccount, type RawAccount } from './bytes.ts';
import { ALPHA_MARKET, ALPHA_PROGRAM } from '../layout.ts';
import { ByteReader } from '../reader.ts';

/** Allocated size of every release from v0.5.0 on (informative: the check is a minimum length). */
export const ALPHA_MARKET_SIZE = 9176;
/** The last byte this decoder reads: the end of `state.other.funding_factor_per_second`. */
const MIN_LENGTH = 4152;

/** 16 pool slots of 64 bytes from 1960, in `PoolKind` order; each holds long / short amounts. */
export const POOL = {
  primary: 0,
  openInterestForLong: 3,
  openInterestForShort: 4,
  openInterestInTokensForLong: 5,
  openInterestInTokensForShort: 6,
  borrowingFactor: 8,
  fundingAmountPerSizeForLong: 9,
  fundingAmountPerSizeForShort: 10,
  claimableFundingAmountPerSizeForLong: 11,
  claimableFundingAmountPerSizeForShort: 12,
  totalBorrowing: 15,
} as const;
const POOLS_AT = 1960;

/** `MarketConfig` fields read (u128 factors ×1e20 unless noted), by offset. */
export const CONFIG_OFFSETS = {
  flags: 248,
  minCollateralValue: 376,
  minCollateralFactor: 392,
  orderFeeFactorForPositiveImpact: 552,
  orderFeeFactorForNegativeImpact: 568,
  liquidationFeeFactor: 600,
  borrowingFeeFactorForLong: 664,
  borrowingFeeFactorForShort: 680,
  borrowingFeeExponentForLong: 696,
  borrowingFeeExponentForShort: 712,
  borrowingFeeOptimalUsageFactorForLong: 728,
  borrowingFeeOptimalUsageFactorForShort: 744,
  borrowingFeeBaseFactorForLong: 760,
  borrowingFeeBaseFactorForShort: 776,
  borrowingFeeAboveOptimalUsageFactorForLong: 792,
  borrowingFeeAboveOptimalUsageFactorForShort: 808,
  fundingFeeExponent: 824,
  fundingFeeFactor: 840,
  fundingFeeMaxFactorPerSecond: 856,
  fundingFeeMinFactorPerSecond: 872,
  fundingFeeIncreaseFactorPerSecond: 888,
  fundingFeeDecreaseFactorPerSecond: 904,
  fundingFeeThresholdForStableFunding: 920,
  fundingFeeThresholdForDecreaseFunding: 936,
  reserveFactor: 952,
  openInterestReserveFactor: 968,
  maxOpenInterestForLong: 1208,
  maxOpenInterestForShort: 1224,
  /** added in v0.8.0 (reserved, so zero, before) */
  minCollateralFactorForLiquidation: 1256,
} as const;
export type AlphaMarketConfig = Record<Exclude<keyof typeof CONFIG_OFFSETS, 'flags'>, bigint> & { flags: bigint };

/**
 * `MarketConfigFlag` bits. UNCONFIRMED: the bit of flag ordinal i is taken to be `1 << i` (the
 * program stores them with the `bitmaps` crate, whose source was not read); the same doubt holds
 * for the market's own flag byte at 10.
 */
export const CONFIG_FLAG_BITS = { skipBorrowingFeeForSmallerSide: 0, ignoreOpenInterestForUsageFactor: 1 } as const;

/** One pool slot: the two stored amounts and whether the pool is "pure" (one token). */
export interface PoolAmounts {
  isPure: boolean;
  long: bigint;
  short: bigint;
}

export interface AlphaMarketAccount {
  address: string;
  name: string;
  marketTokenMint: string;
  indexTokenMint: string;
  longTokenMint: string;
  shortTokenMint: string;
  store: string;
  config: AlphaMarketConfig;
  pools: PoolAmounts[];
  /** unix seconds of the last borrowing / funding state update */
  borrowingClock: number;
  fundingClock: number;
  /** the stored adaptive funding factor per second (×1e20; + = longs pay) */
  fundingFactorPerSecond: bigint;
}

/** Decodes a Market account after checking owner, discriminator and length (throws AccountError). */
export function decodeAlphaMarket(a: RawAccount): AlphaMarketAccount {
  checkAccount(a, 'alpha Market', { owner: ALPHA_PROGRAM, disc: ALPHA_MARKET.disc, minLength: MIN_LENGTH });
  const r = new ByteReader(a.data, `alpha Market ${a.pubkey}`);
  const config = {} as AlphaMarketConfig;
  for (const [k, at] of Object.entries(CONFIG_OFFSETS)) config[k as keyof AlphaMarketConfig] = r.at(at).u128(`config.${k}`);
  const pools: PoolAmounts[] = [];
  for (let i = 0; i < 16; i++) {
    const at = POOLS_AT + 64 * i;
    pools.push({ isPure: r.at(at + 16).u8('isPure') !== 0, long: r.at(at + 32).u128('long'), short: r.at(at + 48).u128('short') });
  }
  return {
    address: a.pubkey,
    name: r.at(ALPHA_MARKET.name).fixedString('name', 64),
    marketTokenMint: r.at(ALPHA_MARKET.marketToken).pubkey('marketTokenMint'),
    indexTokenMint: r.at(ALPHA_MARKET.indexToken).pubkey('indexTokenMint'),
    longTokenMint: r.at(ALPHA_MARKET.longToken).pubkey('longTokenMint'),
    shortTokenMint: r.at(ALPHA_MARKET.shortToken).pubkey('shortTokenMint'),
    store: r.at(216).pubkey('store'),
    config,
    pools,
    borrowingClock: Number(r.at(4032).i64('borrowingClock')),
    fundingClock: Number(r.at(4040).i64('fundingClock')),
    fundingFactorPerSecond: r.at(4136).i128('fundingFactorPerSecond'),
  };
}

/**
 * A pool's amount for one side, as the program's model reads it (pool.rs `Balance for Pool`): a
 * pure pool keeps everything in its long field and reads long = ceil(total / 2), short =
 * floor(total / 2).
 */
export function poolSide(p: PoolAmounts, isLong: boolean): bigint {
  if (!p.isPure) return isLong ? p.long : p.short;
  return isLong ? (p.long + 1n) / 2n : p.long / 2n;
}

/** Both fields merged (e.g. a side's total open interest over both collateral kinds). */
export function poolTotal(p: PoolAmounts): bigint {
  return p.isPure ? p.long : p.long + p.short;
}

/** Open interest of one side in USD ×1e20 (both collateral kinds). */
export function openInterest(m: AlphaMarketAccount, isLong: boolean): bigint {
  return poolTotal(m.pools[isLong ? POOL.openInterestForLong : POOL.openInterestForShort]!);
}

/** Open interest of one side in index-token base units (both collateral kinds). */
export function openInterestInTokens(m: AlphaMarketAccount, isLong: boolean): bigint {
  return poolTotal(m.pools[isLong ? POOL.openInterestInTokensForLong : POOL.openInterestInTokensForShort]!);
}

/** The stored cumulative borrowing factor of one side (×1e20). */
export function cumulativeBorrowingFactor(m: AlphaMarketAccount, isLong: boolean): bigint {
  const p = m.pools[POOL.borrowingFactor]!;
  return isLong ? p.long : p.short;
}

/** Funding amount per size (packed, see accounts.md §1f) of a side, for long- or short-token collateral. */
export function fundingAmountPerSize(m: AlphaMarketAccount, isLong: boolean, longCollateral: boolean): bigint {
  return poolSide(m.pools[isLong ? POOL.fundingAmountPerSizeForLong : POOL.fundingAmountPerSizeForShort]!, longCollateral);
}

/** Claimable funding amount per size (packed) of a side, in the long or the short token. */
export function claimableFundingAmountPerSize(m: AlphaMarketAccount, isLong: boolean, longToken: boolean): bigint {
  return poolSide(m.pools[isLong ? POOL.claimableFundingAmountPerSizeForLong : POOL.claimableFundingAmountPerSizeForShort]!, longToken);
}

/** A config flag (see CONFIG_FLAG_BITS for the doubt on the bit order). */
export function configFlag(m: AlphaMarketAccount, flag: keyof typeof CONFIG_FLAG_BITS): boolean {
  return ((m.config.flags >> BigInt(CONFIG_FLAG_BITS[flag])) & 1n) === 1n;
}
