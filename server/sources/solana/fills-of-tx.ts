/**
 * One transaction's events → its fills, in execution order, and what must be quarantined
 * instead. A TradeEvent is paired with the PositionIncreased / PositionDecreased that the same
 * top-level instruction emitted before it (those carry no position key: alpha-events.md §5) and
 * with the OrderRemoved of its order anywhere in the transaction. A fill is a liquidation when its
 * PositionDecreased has liquidation fees, its instruction is `liquidate`, or its order kind is
 * Liquidation; auto-deleveraging (instruction `auto_deleverage`, order kind 1) is a decrease or
 * close like any other, as the journal has no type for it. A beta event is a fill on its own.
 * `event_index` numbers the fill events of the transaction from 0, quarantined ones included, so
 * (protocol, tx, event_index) is stable across re-fetches: the append path's dedup key.
 */
import type { IncomingFill } from '../../journal/rows.ts';
import type { QuarantineEntry } from '../quarantine.ts';
import { fillProblem } from '../validate-fill.ts';
import type { PositionReport } from './alpha-events.ts';
import type { PositionChain } from './chain.ts';
import { alphaFill, type AlphaMarket } from './decode-alpha.ts';
import { betaFill, RejectedFill } from './decode-beta.ts';
import type { SolanaEvent } from './events.ts';
import { ALPHA_INSTRUCTIONS, type AlphaOrderKind } from './layout.ts';

export interface TxContext {
  signature: string;
  slot: number;
  /** epoch ms of the block (beta events carry no timestamp) */
  time: number;
  /** market token → market (alpha); undefined when no Market account has it */
  marketOf(marketToken: string): AlphaMarket | undefined;
  /** mint → decimals as the chain gives them; undefined when they could not be read */
  decimalsOf(mint: string): number | undefined;
  chain: PositionChain;
}

/** Market tokens of the transaction's TradeEvents (to resolve their markets before decoding). */
export function marketTokensOf(events: readonly SolanaEvent[]): string[] {
  return events.flatMap((e) => (e.protocol === 'alpha' && e.kind === 'trade' ? [e.body.marketToken] : []));
}

/** The fills of one transaction, and the entries to quarantine (tx and slot filled in). */
export function fillsOfTx(events: readonly SolanaEvent[], ctx: TxContext): { fills: IncomingFill[]; rejected: QuarantineEntry[] } {
  const orderKinds = new Map<string, AlphaOrderKind>();
  for (const e of events) if (e.protocol === 'alpha' && e.kind === 'orderRemoved') orderKinds.set(e.body.order, e.body.kind);
  const reports = new Map<number, PositionReport[]>(); // per top-level instruction, not yet paired
  const fills: IncomingFill[] = [];
  const rejected: QuarantineEntry[] = [];
  const reject = (event: string, eventIndex: number, reason: string, extra: Partial<QuarantineEntry> = {}) => rejected.push({ tx: ctx.signature, slot: ctx.slot, event, eventIndex, reason, ...extra });
  let eventIndex = 0;
  for (const e of events) {
    if (e.kind === 'report') {
      reports.set(e.ix, [...(reports.get(e.ix) ?? []), e.body]);
      continue;
    }
    if (e.kind === 'orderRemoved') continue;
    if (e.kind === 'undecodable') {
      // an event that matches no documented layout is never guessed at
      if (e.carriesFill) reject(e.name, eventIndex++, e.reason, { data: Buffer.from(e.data).toString('base64') });
      else reject(e.name, -1, e.reason, { data: Buffer.from(e.data).toString('base64') });
      continue;
    }
    const index = eventIndex++;
    let fill: IncomingFill;
    try {
      if (e.protocol === 'alpha') {
        const ev = e.body;
        const market = ctx.marketOf(ev.marketToken);
        if (!market) throw new RejectedFill(`alpha: no Market account with market token ${ev.marketToken}`);
        const decimals = { index: ctx.decimalsOf(market.indexMint), long: ctx.decimalsOf(market.longMint), short: ctx.decimalsOf(market.shortMint) };
        const missing = (Object.entries(decimals) as [string, number | undefined][]).find(([, d]) => d === undefined);
        if (missing) throw new RejectedFill(`alpha: decimals of ${market.name}'s ${missing[0]} token ${market[`${missing[0]}Mint` as 'indexMint']} are neither in the token map nor in a mint account`);
        const pending = reports.get(e.ix) ?? [];
        let at = pending.length - 1;
        while (at >= 0 && pending[at]!.marketToken !== ev.marketToken) at--;
        const report = at < 0 ? undefined : pending.splice(at, 1)[0];
        const kind = orderKinds.get(ev.order);
        const liquidation = report?.liquidation != null || e.outer === ALPHA_INSTRUCTIONS.liquidate || kind === 'Liquidation';
        fill = alphaFill(ev, {
          tx: ctx.signature,
          slot: ctx.slot,
          eventIndex: index,
          market,
          report,
          liquidation,
          decimals: decimals as { index: number; long: number; short: number },
          running: ctx.chain.get('alpha', ev.position),
        });
      } else {
        fill = betaFill(e.body, { tx: ctx.signature, slot: ctx.slot, time: ctx.time, eventIndex: index, running: ctx.chain.get('beta', e.body.positionKey) });
      }
    } catch (err) {
      if (!(err instanceof RejectedFill)) throw err;
      reject(e.protocol === 'alpha' ? 'TradeEvent' : e.body.name, index, err.message);
      continue;
    }
    const problem = fillProblem(fill);
    if (problem) {
      reject(e.protocol === 'alpha' ? 'TradeEvent' : e.body.name, index, `${fill.protocol} ${fill.type}: ${problem}`, { fill });
      continue;
    }
    ctx.chain.record(fill);
    fills.push(fill);
  }
  return { fills, rejected };
}
