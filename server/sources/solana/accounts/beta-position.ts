/**
 * beta (Jupiter Perpetuals) `Position` account (Borsh, fixed, 210 bytes in the IDLs):
 * shared/design/solana/accounts.md §4. Same discriminator as alpha's Position: the owner check
 * tells them apart. USD values and prices carry 6 decimals.
 */
import { AccountError, checkAccount, Reader, type RawAccount } from './bytes.ts';
import { POSITION_DISCRIMINATOR } from './alpha-position.ts';
import { BETA_PROGRAM } from '../layout.ts';

/** UNCONFIRMED: live accounts may be longer (216 per one third-party source); only a minimum is checked. */
const MIN_LENGTH = 210;

export interface BetaPositionAccount {
  address: string;
  owner: string;
  pool: string;
  custody: string;
  collateralCustody: string;
  openTime: number;
  updateTime: number;
  isLong: boolean;
  /** average entry price, USD 6dp */
  price: bigint;
  /** USD 6dp; 0 = closed */
  sizeUsd: bigint;
  collateralUsd: bigint;
  realisedPnlUsd: bigint;
  cumulativeInterestSnapshot: bigint;
  lockedAmount: bigint;
}

export function decodeBetaPosition(a: RawAccount): BetaPositionAccount {
  checkAccount(a, 'beta Position', { owner: BETA_PROGRAM, disc: POSITION_DISCRIMINATOR, minLength: MIN_LENGTH });
  const r = new Reader(a.data);
  const side = r.u8(152); // 0 None, 1 Long, 2 Short
  if (side !== 1 && side !== 2) throw new AccountError(`beta Position ${a.pubkey}: side ${side} is neither long (1) nor short (2)`);
  return {
    address: a.pubkey,
    owner: r.pubkey(8),
    pool: r.pubkey(40),
    custody: r.pubkey(72),
    collateralCustody: r.pubkey(104),
    openTime: r.seconds(136),
    updateTime: r.seconds(144),
    isLong: side === 1,
    price: r.u64(153),
    sizeUsd: r.u64(161),
    collateralUsd: r.u64(169),
    realisedPnlUsd: r.i64(177),
    cumulativeInterestSnapshot: r.u128(185),
    lockedAmount: r.u64(201),
  };
}
