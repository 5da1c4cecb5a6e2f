/**
 * One transaction's events → its fills, in execution order. A TradeEvent is paired with the
 * PositionIncreased / PositionDecreased of the same position in the same transaction (first
 * unused one) and with the OrderRemoved of its order; a beta event is a fill on its own.
 * `event_index` numbers the fills of the transaction from 0, so (protocol, tx, event_index) is
 * stable across re-fetches: the append path's dedup key.
 */
import type { IncomingFill } from '../../journal/rows.ts';
import type { CollateralChain } from './chain.ts';
import { alphaFill, type AlphaMarket } from './decode-alpha.ts';
import { betaFill } from './decode-beta.ts';
import type { SolanaEvent } from './events.ts';
import { BETA_CUSTODIES, TOKEN_DECIMALS, type PositionFeeValues } from './layout.ts';
import { log } from '../../log.ts';

const warned = new Set<string>();
function warnOnce(key: string, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  log.warn(message);
}

export interface TxContext {
  signature: string;
  slot: number;
  /** epoch ms of the block (beta events carry no timestamp) */
  time: number;
  /** market token → market (alpha); undefined when the Market account is unknown */
  marketOf(marketToken: string): AlphaMarket | undefined;
  chain: CollateralChain;
}

/** Market tokens of the transaction's TradeEvents (to resolve their markets before decoding). */
export function marketTokensOf(events: readonly SolanaEvent[]): string[] {
  return events.flatMap((e) => (e.protocol === 'alpha' && e.kind === 'trade' ? [e.body.marketToken] : []));
}

export function fillsOfTx(events: readonly SolanaEvent[], ctx: TxContext): IncomingFill[] {
  const feeQueue = new Map<string, PositionFeeValues[]>();
  const orderKinds = new Map<string, string>();
  for (const e of events) {
    if (e.protocol !== 'alpha') continue;
    if (e.kind === 'fees') {
      const q = feeQueue.get(e.body.position) ?? [];
      q.push(e.body);
      feeQueue.set(e.body.position, q);
    } else if (e.kind === 'orderRemoved') orderKinds.set(e.order, e.orderKind);
  }
  const fills: IncomingFill[] = [];
  let eventIndex = 0; // counts every fill event, skipped ones included, so indices never shift
  for (const e of events) {
    let fill: IncomingFill;
    if (e.protocol === 'alpha' && e.kind !== 'trade') continue;
    const base = { tx: ctx.signature, slot: ctx.slot, eventIndex: eventIndex++ };
    if (e.protocol === 'alpha') {
      if (e.kind !== 'trade') continue;
      const market = ctx.marketOf(e.body.marketToken);
      if (!market) throw new Error(`alpha: no Market account known for market token ${e.body.marketToken}`);
      if (TOKEN_DECIMALS[market.index] === undefined) {
        warnOnce(market.name, `alpha: no decimals known for the index token of ${market.name} (TOKEN_DECIMALS, layout.ts); its fills are skipped`);
        continue;
      }
      fill = alphaFill(e.body, {
        ...base,
        market,
        feeValues: feeQueue.get(e.body.position)?.shift(),
        orderKind: orderKinds.get(e.body.order),
        prevCollateralMicros: ctx.chain.get('alpha', e.body.position),
      });
    } else {
      const unknown = [e.body.custody, e.body.collateralCustody].find((c) => BETA_CUSTODIES[c] === undefined);
      if (unknown !== undefined) {
        warnOnce(unknown, `beta: custody ${unknown} is not in BETA_CUSTODIES (layout.ts); its fills are skipped`);
        continue;
      }
      fill = betaFill(e.kind, e.body, { ...base, time: ctx.time, prevCollateralMicros: ctx.chain.get('beta', e.body.positionKey) });
    }
    ctx.chain.record(fill);
    fills.push(fill);
  }
  return fills;
}
