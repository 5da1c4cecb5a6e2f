/**
 * alpha (GMX-Solana) `Position` account (zero-copy, 680 bytes): shared/design/solana/accounts.md §2.
 * Its discriminator is the same as beta's Position: the owner check tells them apart.
 */
import { AccountError, checkAccount, Reader, type RawAccount } from './bytes.ts';
import { ALPHA_PROGRAM } from '../layout.ts';

export const POSITION_DISCRIMINATOR = 'aabc8fe47a40f7d0';
/** The end of `state` (152 + 272): every field read lies before it. */
const MIN_LENGTH = 424;

export interface AlphaPositionAccount {
  address: string;
  store: string;
  isLong: boolean;
  owner: string;
  marketToken: string;
  collateralToken: string;
  createdAt: number;
  tradeId: bigint;
  increasedAt: number;
  decreasedAt: number;
  sizeInTokens: bigint;
  collateralAmount: bigint;
  /** USD ×1e20; 0 = empty (the account is normally closed then) */
  sizeInUsd: bigint;
  borrowingFactor: bigint;
  fundingFeeAmountPerSize: bigint;
  longTokenClaimableFundingAmountPerSize: bigint;
  shortTokenClaimableFundingAmountPerSize: bigint;
}

export function decodeAlphaPosition(a: RawAccount): AlphaPositionAccount {
  checkAccount(a, 'alpha Position', { owner: ALPHA_PROGRAM, disc: POSITION_DISCRIMINATOR, minLength: MIN_LENGTH });
  const r = new Reader(a.data);
  const kind = r.u8(42); // PositionKind: 0 uninitialized, 1 long, 2 short
  if (kind !== 1 && kind !== 2) throw new AccountError(`alpha Position ${a.pubkey}: kind ${kind} is neither long (1) nor short (2)`);
  return {
    address: a.pubkey,
    store: r.pubkey(10),
    isLong: kind === 1,
    createdAt: r.seconds(48),
    owner: r.pubkey(56),
    marketToken: r.pubkey(88),
    collateralToken: r.pubkey(120),
    tradeId: r.u64(152),
    increasedAt: r.seconds(160),
    decreasedAt: r.seconds(176),
    sizeInTokens: r.u128(184),
    collateralAmount: r.u128(200),
    sizeInUsd: r.u128(216),
    borrowingFactor: r.u128(232),
    fundingFeeAmountPerSize: r.u128(248),
    longTokenClaimableFundingAmountPerSize: r.u128(264),
    shortTokenClaimableFundingAmountPerSize: r.u128(280),
  };
}
