/**
 * Event-CPI extraction: the inner instructions of a transaction (as getTransaction returns them,
 * `json` or `jsonParsed` encoding) that a program addressed to itself with the event-CPI tag,
 * decoded into typed events, in execution order. Nothing is read from logs.
 */
import { base58ToBytes } from './base58.ts';
import type { BetaEvent, BetaEventKind } from './decode-beta.ts';
import {
  ALPHA_EVENTS,
  ALPHA_ORDER_KINDS,
  ALPHA_PROGRAM,
  BETA_EVENTS,
  BETA_PROGRAM,
  betaDecreaseDecoder,
  betaIncreaseDecoder,
  betaLiquidateDecoder,
  decodeBody,
  EVENT_CPI_TAG,
  orderRemovedDecoder,
  positionDecreasedDecoder,
  positionIncreasedDecoder,
  tradeEventDecoder,
  type PositionFeeValues,
  type TradeEvent,
} from './layout.ts';
import { bytesToHex } from './units.ts';

/** The parts of a getTransaction result the indexer reads. */
export interface RpcTransaction {
  slot: number;
  blockTime: number | null;
  transaction: {
    signatures: string[];
    message: { accountKeys: (string | { pubkey: string })[] };
  };
  meta: {
    err: unknown;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
    innerInstructions?: { index: number; instructions: { programIdIndex?: number; programId?: string; data?: string }[] }[] | null;
  } | null;
}

export type SolanaEvent =
  | { protocol: 'alpha'; kind: 'trade'; body: TradeEvent }
  | { protocol: 'alpha'; kind: 'fees'; body: PositionFeeValues }
  | { protocol: 'alpha'; kind: 'orderRemoved'; order: string; orderKind: string }
  | { protocol: 'beta'; kind: BetaEventKind; body: BetaEvent };

const PROGRAMS = new Set([ALPHA_PROGRAM, BETA_PROGRAM]);

/** The transaction's account keys: static keys, then loaded writable, then loaded read-only (v0). */
function accountKeys(tx: RpcTransaction): string[] {
  const keys = tx.transaction.message.accountKeys.map((k) => (typeof k === 'string' ? k : k.pubkey));
  const loaded = tx.meta?.loadedAddresses;
  return loaded ? [...keys, ...loaded.writable, ...loaded.readonly] : keys;
}

/** Inner instructions of either program that carry the event-CPI tag: (program, bytes after the tag). */
export function eventInstructions(tx: RpcTransaction): { program: string; data: Uint8Array }[] {
  const keys = accountKeys(tx);
  const groups = [...(tx.meta?.innerInstructions ?? [])].sort((a, b) => a.index - b.index);
  const out: { program: string; data: Uint8Array }[] = [];
  for (const group of groups) {
    for (const ix of group.instructions) {
      const program = ix.programId ?? (ix.programIdIndex === undefined ? undefined : keys[ix.programIdIndex]);
      if (program === undefined || !PROGRAMS.has(program) || ix.data === undefined) continue;
      const bytes = base58ToBytes(ix.data);
      if (bytes.length < 16 || bytesToHex(bytes.subarray(0, 8)) !== EVENT_CPI_TAG) continue;
      out.push({ program, data: bytes.subarray(8) });
    }
  }
  return out;
}

/** Decodes one event (discriminator + body); null for events the indexer does not use. */
export function decodeEvent(program: string, data: Uint8Array): SolanaEvent | null {
  const disc = bytesToHex(data.subarray(0, 8));
  const body = data.subarray(8);
  if (program === ALPHA_PROGRAM) {
    switch (disc) {
      case ALPHA_EVENTS.TradeEvent:
        return { protocol: 'alpha', kind: 'trade', body: decodeBody(tradeEventDecoder, body, 'TradeEvent') };
      case ALPHA_EVENTS.PositionIncreased:
        return { protocol: 'alpha', kind: 'fees', body: decodeBody(positionIncreasedDecoder, body, 'PositionIncreased') };
      case ALPHA_EVENTS.PositionDecreased:
        return { protocol: 'alpha', kind: 'fees', body: decodeBody(positionDecreasedDecoder, body, 'PositionDecreased') };
      case ALPHA_EVENTS.OrderRemoved: {
        const r = decodeBody(orderRemovedDecoder, body, 'OrderRemoved');
        return { protocol: 'alpha', kind: 'orderRemoved', order: r.order, orderKind: ALPHA_ORDER_KINDS[r.kind] ?? `kind ${r.kind}` };
      }
      default:
        return null;
    }
  }
  switch (disc) {
    case BETA_EVENTS.IncreasePositionEvent:
    case BETA_EVENTS.InstantIncreasePositionEvent:
      return { protocol: 'beta', kind: 'increase', body: decodeBody(betaIncreaseDecoder, body, 'IncreasePositionEvent') };
    case BETA_EVENTS.DecreasePositionEvent:
    case BETA_EVENTS.InstantDecreasePositionEvent:
      return { protocol: 'beta', kind: 'decrease', body: decodeBody(betaDecreaseDecoder, body, 'DecreasePositionEvent') };
    case BETA_EVENTS.LiquidateFullPositionEvent:
      return { protocol: 'beta', kind: 'liquidate', body: decodeBody(betaLiquidateDecoder, body, 'LiquidateFullPositionEvent') };
    default:
      return null;
  }
}

/** Every event of a successful transaction, in execution order (a failed one has none). */
export function eventsOf(tx: RpcTransaction): SolanaEvent[] {
  if (tx.meta?.err) return [];
  const out: SolanaEvent[] = [];
  for (const { program, data } of eventInstructions(tx)) {
    const ev = decodeEvent(program, data);
    if (ev) out.push(ev);
  }
  return out;
}
