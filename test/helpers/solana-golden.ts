/**
 * Shared pieces of the golden-vector tests: a transaction carrying hand-laid event-CPI inner
 * instructions (under one top-level instruction whose data the test chooses), and decoding it to
 * fills the way the indexer does.
 */
import { PositionChain } from '../../server/sources/solana/chain.ts';
import type { AlphaMarket } from '../../server/sources/solana/decode-alpha.ts';
import { eventsOf, type RpcTransaction } from '../../server/sources/solana/events.ts';
import { fillsOfTx } from '../../server/sources/solana/fills-of-tx.ts';
import { b58, concat, fromHex } from './solana-bytes.ts';

export const TAG = fromHex('e445a52e51cb9a1d'); // Anchor event-CPI tag
export const ALPHA = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
export const BETA = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';
/** the event authorities (alpha-events.md §0, accounts.md §6) */
export const EVENT_AUTHORITY: Record<string, string> = {
  [ALPHA]: '8a4wJ2bMiH6XWDZ7biTnejkss8VG7GMwd9Mg6F5fDfHF',
  [BETA]: '37hJBDnntwqhGbK7L6M1bLyvccj4u55CCUiLPdYkiqBN',
};

export interface TxOptions {
  slot?: number;
  blockTime?: number;
  /** data of the top-level instruction (of the same program) that emitted the events */
  outer?: Uint8Array;
}

/** A transaction whose inner instructions are the given self-CPI events of `program`. */
export function txOf(program: string, events: Uint8Array[], opts: TxOptions = {}): RpcTransaction {
  return {
    slot: opts.slot ?? 330_000_000,
    blockTime: opts.blockTime ?? 1_780_000_000,
    transaction: {
      signatures: ['Sig1111'],
      message: {
        accountKeys: ['Payer1111111111111111111111111111111111111', program, EVENT_AUTHORITY[program]!],
        instructions: [{ programIdIndex: 1, data: b58(opts.outer ?? fromHex('0000000000000000')) }],
      },
    },
    meta: { err: null, innerInstructions: [{ index: 0, instructions: events.map((e) => ({ programIdIndex: 1, accounts: [2], data: b58(concat(TAG, e)) })) }] },
  };
}

/** The fills (and quarantined entries) of a transaction, as the indexer decodes them. */
export function decode(tx: RpcTransaction, opts: { markets?: AlphaMarket[]; decimals?: Record<string, number>; chain?: PositionChain } = {}) {
  return fillsOfTx(eventsOf(tx), {
    signature: tx.transaction.signatures[0]!,
    slot: tx.slot,
    time: tx.blockTime! * 1000,
    marketOf: (t) => opts.markets?.find((m) => m.marketToken === t),
    decimalsOf: (mint) => opts.decimals?.[mint],
    chain: opts.chain ?? new PositionChain(),
  });
}
