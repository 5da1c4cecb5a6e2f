/**
 * Event-CPI extraction: the inner instructions of a transaction (as getTransaction returns them,
 * `json` encoding) that a program addressed to itself with the event-CPI tag, decoded into typed
 * events in execution order, each with the index of the top-level instruction that emitted it
 * (alpha pairs events of one instruction) and that instruction's discriminator. Nothing is read
 * from logs; an inner instruction counts as an event only when its account is the program's event
 * authority. An event of a known discriminator whose bytes match no documented layout comes out
 * as `undecodable`, with its bytes and the reason, for the caller to warn about and quarantine.
 */
import { decodeOrderRemoved, decodePositionDecreased, decodePositionIncreased, decodeTradeEvent, type OrderRemoved, type PositionReport, type TradeEvent } from './alpha-events.ts';
import { base58ToBytes } from './base58.ts';
import { decodeBetaEvent, type BetaEvent, type BetaEventName } from './beta-events.ts';
import { ALPHA_EVENTS, ALPHA_PROGRAM, BETA_EVENTS, BETA_PROGRAM, EVENT_AUTHORITY, EVENT_CPI_TAG } from './layout.ts';
import { LayoutError } from './reader.ts';
import { bytesToHex } from './units.ts';

/** The parts of a getTransaction result the indexer reads. */
export interface RpcTransaction {
  slot: number;
  blockTime: number | null;
  transaction: {
    signatures: string[];
    message: {
      accountKeys: (string | { pubkey: string })[];
      instructions?: { programIdIndex: number; data: string }[];
    };
  };
  meta: {
    err: unknown;
    loadedAddresses?: { writable: string[]; readonly: string[] } | null;
    innerInstructions?: { index: number; instructions: { programIdIndex?: number; programId?: string; accounts?: number[]; data?: string }[] }[] | null;
  } | null;
}

interface Where {
  /** index of the top-level instruction whose inner instructions hold the event */
  ix: number;
  /** that instruction's 8-byte discriminator (hex) when it is an instruction of the same program */
  outer?: string;
}

export type SolanaEvent = Where &
  (
    | { protocol: 'alpha'; kind: 'trade'; body: TradeEvent }
    | { protocol: 'alpha'; kind: 'report'; body: PositionReport }
    | { protocol: 'alpha'; kind: 'orderRemoved'; body: OrderRemoved }
    | { protocol: 'beta'; kind: 'fill'; body: BetaEvent }
    | { protocol: 'alpha' | 'beta'; kind: 'undecodable'; name: string; reason: string; data: Uint8Array; carriesFill: boolean }
  );

const PROGRAMS = new Set([ALPHA_PROGRAM, BETA_PROGRAM]);
const ALPHA_BY_DISC = new Map<string, string>(Object.entries(ALPHA_EVENTS).map(([name, disc]) => [disc, name]));
const BETA_BY_DISC = new Map<string, BetaEventName>(Object.entries(BETA_EVENTS).map(([name, disc]) => [disc, name as BetaEventName]));

/** The transaction's account keys: static keys, then loaded writable, then loaded read-only (v0). */
function accountKeys(tx: RpcTransaction): string[] {
  const keys = tx.transaction.message.accountKeys.map((k) => (typeof k === 'string' ? k : k.pubkey));
  const loaded = tx.meta?.loadedAddresses;
  return loaded ? [...keys, ...loaded.writable, ...loaded.readonly] : keys;
}

/** Inner instructions of either program that carry the event-CPI tag: (program, bytes after the tag, where). */
export function eventInstructions(tx: RpcTransaction): ({ program: string; data: Uint8Array } & Where)[] {
  const keys = accountKeys(tx);
  const outerIxs = tx.transaction.message.instructions ?? [];
  const groups = [...(tx.meta?.innerInstructions ?? [])].sort((a, b) => a.index - b.index);
  const out: ({ program: string; data: Uint8Array } & Where)[] = [];
  for (const group of groups) {
    const outer = outerIxs[group.index];
    const outerProgram = outer ? keys[outer.programIdIndex] : undefined;
    const outerData = outer && outerProgram && PROGRAMS.has(outerProgram) ? base58ToBytes(outer.data) : undefined;
    for (const ix of group.instructions) {
      const program = ix.programId ?? (ix.programIdIndex === undefined ? undefined : keys[ix.programIdIndex]);
      if (program === undefined || !PROGRAMS.has(program) || ix.data === undefined) continue;
      const bytes = base58ToBytes(ix.data);
      if (bytes.length < 16 || bytesToHex(bytes.subarray(0, 8)) !== EVENT_CPI_TAG) continue;
      // an event self-CPI's (first and only) account is the program's event authority
      const first = ix.accounts?.[0];
      if (first === undefined || keys[first] !== EVENT_AUTHORITY[program]) continue;
      const where: Where = { ix: group.index };
      if (outerData && outerProgram === program && outerData.length >= 8) where.outer = bytesToHex(outerData.subarray(0, 8));
      out.push({ program, data: bytes.subarray(8), ...where });
    }
  }
  return out;
}

/** Decodes one event (discriminator + body); null for events the indexer does not use. */
export function decodeEvent(program: string, data: Uint8Array, where: Where): SolanaEvent | null {
  const disc = bytesToHex(data.subarray(0, 8));
  const body = data.subarray(8);
  const alpha = program === ALPHA_PROGRAM;
  const name = alpha ? ALPHA_BY_DISC.get(disc) : BETA_BY_DISC.get(disc);
  if (name === undefined) return null;
  try {
    if (!alpha) return { ...where, protocol: 'beta', kind: 'fill', body: decodeBetaEvent(name as BetaEventName, body) };
    switch (name) {
      case 'TradeEvent':
        return { ...where, protocol: 'alpha', kind: 'trade', body: decodeTradeEvent(body) };
      case 'PositionIncreased':
        return { ...where, protocol: 'alpha', kind: 'report', body: decodePositionIncreased(body) };
      case 'PositionDecreased':
        return { ...where, protocol: 'alpha', kind: 'report', body: decodePositionDecreased(body) };
      default:
        return { ...where, protocol: 'alpha', kind: 'orderRemoved', body: decodeOrderRemoved(body) };
    }
  } catch (err) {
    if (!(err instanceof LayoutError)) throw err;
    return { ...where, protocol: alpha ? 'alpha' : 'beta', kind: 'undecodable', name, reason: err.message, data, carriesFill: !alpha || name === 'TradeEvent' };
  }
}

/** Every event of a successful transaction, in execution order (a failed one has none). */
export function eventsOf(tx: RpcTransaction): SolanaEvent[] {
  if (tx.meta?.err) return [];
  const out: SolanaEvent[] = [];
  for (const { program, data, ...where } of eventInstructions(tx)) {
    const ev = decodeEvent(program, data, where);
    if (ev) out.push(ev);
  }
  return out;
}
