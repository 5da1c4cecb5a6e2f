/**
 * beta (Jupiter Perpetuals) `Custody` account (Borsh, no variable-length field, so every offset is
 * fixed): shared/design/solana/accounts.md §3, from the published IDLs. USD values carry 6
 * decimals, rates RATE_POWER = 1e9, basis points 1e4.
 */
import { checkAccount, type RawAccount } from './bytes.ts';
import { BETA_PROGRAM } from '../layout.ts';
import { ByteReader } from '../reader.ts';

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
  const r = new ByteReader(a.data, `beta Custody ${a.pubkey}`);
  return {
    address: a.pubkey,
    pool: r.at(8).pubkey('pool'),
    mint: r.at(40).pubkey('mint'),
    decimals: r.at(104).u8('decimals'),
    isStable: r.at(105).u8('isStable') !== 0,
    oracleAccount: r.at(106).pubkey('oracleAccount'),
    oracleType: r.at(138).u8('oracleType'),
    tradeImpactFeeScalar: r.at(151).u64('tradeImpactFeeScalar'),
    maxLeverageBps: r.at(175).u64('maxLeverageBps'),
    owned: r.at(222).u64('owned'),
    locked: r.at(230).u64('locked'),
    guaranteedUsd: r.at(238).u64('guaranteedUsd'),
    globalShortSizes: r.at(246).u64('globalShortSizes'),
    globalShortAveragePrice: r.at(254).u64('globalShortAveragePrice'),
    cumulativeInterestRate: r.at(262).u128('cumulativeInterestRate'),
    lastUpdate: Number(r.at(278).i64('lastUpdate')),
    hourlyFundingDbps: r.at(286).u64('hourlyFundingDbps'),
    increasePositionBps: r.at(296).u64('increasePositionBps'),
    decreasePositionBps: r.at(304).u64('decreasePositionBps'),
    dovesOracle: r.at(320).pubkey('dovesOracle'),
    jumpRate: {
      minRateBps: r.at(352).u64('minRateBps'),
      maxRateBps: r.at(360).u64('maxRateBps'),
      targetRateBps: r.at(368).u64('targetRateBps'),
      targetUtilizationRate: r.at(376).u64('targetUtilizationRate'),
    },
    dovesAgOracle: r.at(384).pubkey('dovesAgOracle'),
    debt: r.at(1004).u128('debt'),
    borrowLendInterestsAccrued: r.at(1020).u128('borrowLendInterestsAccrued'),
  };
}
