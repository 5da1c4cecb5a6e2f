/**
 * beta (Jupiter Perpetuals) `Position` account (Borsh, fixed, 210 bytes in the IDLs):
 * shared/design/solana/accounts.md §4. Same discriminator as alpha's Position: the owner check
 * tells them apart. USD values and prices carry 6 decimals.
 */
import { AccountError, checkAccount, type RawAccount } from './bytes.ts';
import { POSITION_DISCRIMINATOR } from './alpha-position.ts';
import { BETA_PROGRAM } from '../layout.ts';
import { ByteReader } from '../reader.ts';

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
  const r = new ByteReader(a.data, `beta Position ${a.pubkey}`);
  const side = r.at(152).u8('side'); // 0 None, 1 Long, 2 Short
  if (side !== 1 && side !== 2) throw new AccountError(`beta Position ${a.pubkey}: side ${side} is neither long (1) nor short (2)`);
  return {
    address: a.pubkey,
    owner: r.at(8).pubkey('owner'),
    pool: r.at(40).pubkey('pool'),
    custody: r.at(72).pubkey('custody'),
    collateralCustody: r.at(104).pubkey('collateralCustody'),
    openTime: Number(r.at(136).i64('openTime')),
    updateTime: Number(r.at(144).i64('updateTime')),
    isLong: side === 1,
    price: r.at(153).u64('price'),
    sizeUsd: r.at(161).u64('sizeUsd'),
    collateralUsd: r.at(169).u64('collateralUsd'),
    realisedPnlUsd: r.at(177).i64('realisedPnlUsd'),
    cumulativeInterestSnapshot: r.at(185).u128('cumulativeInterestSnapshot'),
    lockedAmount: r.at(201).u64('lockedAmount'),
  };
}
