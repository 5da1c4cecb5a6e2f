/**
 * beta (Jupiter Perpetuals) `Custody` account (Borsh, no variable-length field, so every offset is
 * fixed): shared/design/solana/accounts.md §3, from the published IDLs. USD values carry 6
 * decimals, rates RATE_POWER = 1e9, basis points 1e4.
 */
import { checkAccount, Reader, type RawAccount } from './bytes.ts';
import { BETA_PROGRAM } from '../layout.ts';

export const CUSTODY_DISCRIMINATOR = '01b830515d833f91';
/**
 * UNCONFIRMED: the live account length. The IDLs end at 1060 (2025-08) and 1117 (2026-03); a
 * third-party source says live custodies are 2000 bytes. We read nothing past 384 + 32 and require
 * the older IDL's full length, never an exact size.
 */
const MIN_LENGTH = 1060;

export interface BetaCustodyAccount {
  address: string;
  pool: string;
  mint: string;
  decimals: number;
  isStable: boolean;
  /** `oracle.oracle_account`: probably a Pyth PriceUpdateV2 push feed (UNCONFIRMED, oracle-prices.md §1d) */
  oracleAccount: string;
  /** 0 None, 1 Test, 2 Pyth */
  oracleType: number;
  /** `pricing.trade_impact_fee_scalar`: impact fee bps = size × 1e4 / scalar */
  tradeImpactFeeScalar: bigint;
  /** `pricing.max_leverage` in bps: the liquidation threshold is size × 1e4 / max_leverage */
  maxLeverageBps: bigint;
  owned: bigint;
  locked: bigint;
  guaranteedUsd: bigint;
  globalShortSizes: bigint;
  globalShortAveragePrice: bigint;
  /** cumulative borrow interest per $1 of size × 1e9 */
  cumulativeInterestRate: bigint;
  /** unix seconds of the last cumulative update */
  lastUpdate: number;
  /** non-zero: the linear borrow model (dbps per hour at 100 % utilisation) */
  hourlyFundingDbps: bigint;
  increasePositionBps: bigint;
  decreasePositionBps: bigint;
  dovesOracle: string;
  jumpRate: { minRateBps: bigint; maxRateBps: bigint; targetRateBps: bigint; targetUtilizationRate: bigint };
  dovesAgOracle: string;
  /** `debt` and `borrow_lend_interests_accured` (×DEBT_POWER 1e9): the outstanding debt counts in owned and locked */
  debt: bigint;
  borrowLendInterestsAccrued: bigint;
}

export function decodeBetaCustody(a: RawAccount): BetaCustodyAccount {
  checkAccount(a, 'beta Custody', { owner: BETA_PROGRAM, disc: CUSTODY_DISCRIMINATOR, minLength: MIN_LENGTH });
  const r = new Reader(a.data);
  return {
    address: a.pubkey,
    pool: r.pubkey(8),
    mint: r.pubkey(40),
    decimals: r.u8(104),
    isStable: r.bool(105),
    oracleAccount: r.pubkey(106),
    oracleType: r.u8(138),
    tradeImpactFeeScalar: r.u64(151),
    maxLeverageBps: r.u64(175),
    owned: r.u64(222),
    locked: r.u64(230),
    guaranteedUsd: r.u64(238),
    globalShortSizes: r.u64(246),
    globalShortAveragePrice: r.u64(254),
    cumulativeInterestRate: r.u128(262),
    lastUpdate: r.seconds(278),
    hourlyFundingDbps: r.u64(286),
    increasePositionBps: r.u64(296),
    decreasePositionBps: r.u64(304),
    dovesOracle: r.pubkey(320),
    jumpRate: { minRateBps: r.u64(352), maxRateBps: r.u64(360), targetRateBps: r.u64(368), targetUtilizationRate: r.u64(376) },
    dovesAgOracle: r.pubkey(384),
    debt: r.u128(1004),
    borrowLendInterestsAccrued: r.u128(1020),
  };
}
