/**
 * alpha (GMX-Solana) `Position` account (zero-copy, 680 bytes): shared/design/solana/accounts.md §2.
 * Its discriminator is the same as beta's Position: the owner check tells them apart.
 */
import { AccountError, checkAccount, type RawAccount } from './bytes.ts';
import { ALPHA_PROGRAM } from '../layout.ts';
import { readPositionState, type PositionState } from '../alpha-events.ts';
import { ByteReader } from '../reader.ts';

export const POSITION_DISCRIMINATOR = 'aabc8fe47a40f7d0';
/** The end of `state` (152 + 272): every field read lies before it. */
const MIN_LENGTH = 424;

/** The account's keys and kind, and its `state` at 152: the PositionState TradeEvents carry. */
export interface AlphaPositionAccount extends PositionState {
  address: string;
  store: string;
  isLong: boolean;
  owner: string;
  marketToken: string;
  collateralToken: string;
  createdAt: number;
}

export function decodeAlphaPosition(a: RawAccount): AlphaPositionAccount {
  checkAccount(a, 'alpha Position', { owner: ALPHA_PROGRAM, disc: POSITION_DISCRIMINATOR, minLength: MIN_LENGTH });
  const r = new ByteReader(a.data, `alpha Position ${a.pubkey}`);
  const kind = r.at(42).u8('kind'); // PositionKind: 0 uninitialized, 1 long, 2 short
  if (kind !== 1 && kind !== 2) throw new AccountError(`alpha Position ${a.pubkey}: kind ${kind} is neither long (1) nor short (2)`);
  return {
    address: a.pubkey,
    store: r.at(10).pubkey('store'),
    isLong: kind === 1,
    createdAt: Number(r.at(48).i64('createdAt')),
    owner: r.at(56).pubkey('owner'),
    marketToken: r.at(88).pubkey('marketToken'),
    collateralToken: r.at(120).pubkey('collateralToken'),
    ...readPositionState(r.at(152), 'state'),
  };
}
