/**
 * One sync pass of the solana source: every finalized transaction of both programs from a
 * resume point to the tip, fetched with bounded concurrency, decoded in order and appended
 * through the one append path in batches, each with its checkpoint. The backfill is the first
 * pass (with progress and ETA); following the chain is the same pass repeated (follow.ts).
 */
import { appendRetrying } from '../../ingest/append-retry.ts';
import type { IncomingFill, IncomingPositionSnapshot, MarketSnapshot } from '../../journal/rows.ts';
import { log } from '../../lib/log.ts';
import { progress } from '../../lib/progress.ts';
import type { Service } from '../../service.ts';
import type { Quarantine } from '../quarantine.ts';
import type { PositionChain } from './chain.ts';
import { eventsOf } from './events.ts';
import { fillsOfTx, marketTokensOf } from './fills-of-tx.ts';
import { ALPHA_PROGRAM, BETA_PROGRAM } from './layout.ts';
import type { AlphaMarkets } from './markets.ts';
import type { LatestPrices } from './latest-prices.ts';
import { RpcError, type SolanaRpc } from './rpc.ts';
import type { TokenDecimals } from './tokens.ts';
import type { AlphaMarketHistory } from './history/alpha-history.ts';
import { mergeBySlot, planWalk, walkSignatures, type StartPoint } from './signatures.ts';

/** The checkpoint slot of this source in the journal. */
export const SOLANA_SOURCE = 'solana';

/**
 * The resume point stored with each batch: every transaction before `slot` is in the journal,
 * and so are the ones of `slot` listed in `done`.
 */
export interface SolanaCheckpoint {
  slot: number;
  done: string[];
}

export interface SyncContext {
  service: Service;
  rpc: SolanaRpc;
  markets: AlphaMarkets;
  chain: PositionChain;
  tokens: TokenDecimals;
  quarantine: Quarantine;
  /** latest oracle prices per alpha market (for poll snapshots) */
  prices: LatestPrices;
  /** per program, the newest signature a completed pass has appended (walks stop there) */
  newest: Map<string, string>;
  /** during the backfill: alpha market snapshots rebuilt from MarketStateUpdated events */
  history?: AlphaMarketHistory;
}

export interface SyncOptions {
  /** where to start when the journal has no checkpoint of this source */
  from: StartPoint;
  signal?: AbortSignal;
  /** log progress with an ETA (the backfill) */
  showProgress?: boolean;
  /** append after this many fills or transactions, whichever comes first */
  batchFills?: number;
  batchTxs?: number;
  /** transactions fetched ahead of the one being decoded */
  lookahead?: number;
}

export interface SyncResult {
  txs: number;
  fills: number;
  duplicates: number;
  checkpoint: SolanaCheckpoint | undefined;
  /** the slot of the newest signature of either program when the pass began: indexed through it */
  tipSlot: number;
}

/** `f` applied to each item of `src` with up to `n` calls in flight; results in source order. */
async function* prefetch<T, R>(src: AsyncIterable<T>, n: number, f: (t: T) => Promise<R>): AsyncGenerator<[T, R]> {
  const it = src[Symbol.asyncIterator]();
  const queue: [T, Promise<R>][] = [];
  let done = false;
  for (;;) {
    while (!done && queue.length < n) {
      const r = await it.next();
      if (r.done) done = true;
      else {
        const p = f(r.value);
        p.catch(() => {}); // awaited in order below; avoid an unhandled rejection meanwhile
        queue.push([r.value, p]);
      }
    }
    const head = queue.shift();
    if (!head) return;
    yield [head[0], await head[1]];
  }
}

/** The `event` position snapshot a fill implies (the on-chain state right after it). */
function eventSnapshot(f: IncomingFill): IncomingPositionSnapshot {
  return {
    time: f.time,
    protocol: f.protocol,
    position_key: f.position_key,
    size_usd: f.position_size_usd,
    collateral_usd: f.position_collateral_usd,
    unsettled_borrowing_usd: 0,
    unsettled_funding_usd: 0,
    claimable_funding_usd: 0,
    mark_price: f.index_price,
    liquidation_price: null,
    source: 'event',
  };
}

/** Syncs from the journal's checkpoint (or `opts.from`) to the tip. */
export async function syncToTip(ctx: SyncContext, opts: SyncOptions): Promise<SyncResult> {
  const { service, rpc, markets } = ctx;
  const { signal } = opts;
  const cp = service.sourceCheckpoint(SOLANA_SOURCE) as SolanaCheckpoint | undefined;
  const from: StartPoint = cp ? { slot: cp.slot } : opts.from;
  const skip = new Set(cp?.done ?? []);
  const plans = await Promise.all([ALPHA_PROGRAM, BETA_PROGRAM].map((p) => planWalk(rpc, p, from, signal, ctx.newest.get(p))));
  const tipSlot = Math.max(0, ...plans.map((p) => p.tipSlot ?? 0));
  const stream = mergeBySlot(plans.map((p) => walkSignatures(rpc, p, from, signal)));
  const fetched = prefetch(stream, opts.lookahead ?? 32, (s) => rpc.getTransaction(s.signature));

  const batchFills = opts.batchFills ?? 5_000;
  const batchTxs = opts.batchTxs ?? 2_000;
  let bar: ReturnType<typeof progress> | undefined;
  let startSlot = 0;
  let fills: IncomingFill[] = [];
  let marketSnapshots: MarketSnapshot[] = [];
  let pendingTxs = 0;
  let checkpoint = cp;
  const result: SyncResult = { txs: 0, fills: 0, duplicates: 0, checkpoint: cp, tipSlot };

  let lastTime: number | null = null;
  let lastSlot = 0;
  const flush = async () => {
    if (pendingTxs === 0) return;
    // a failed append (a full disk) pauses the pass and is retried with backoff, never skipped
    const r = await appendRetrying(service, { fills, marketSnapshots, positionSnapshots: fills.map(eventSnapshot), checkpoint }, { source: SOLANA_SOURCE }, { signal });
    if (!r) return; // stopped while retrying: the checkpoint stays where it was
    // the source's progress and completeness move with what is committed, not what is read
    if (opts.showProgress && bar) {
      const done = Math.min(1, (lastSlot - startSlot) / Math.max(1, tipSlot - startSlot));
      const elapsed = bar.elapsed();
      service.source.set('backfilling', {
        progress: done,
        etaS: done > 0 ? Math.round((elapsed / done) * (1 - done)) : null,
        completeToMs: lastTime,
        slotLag: Math.max(0, tipSlot - lastSlot),
      });
    }
    result.fills += r.fills.length;
    result.duplicates += r.duplicates;
    result.checkpoint = checkpoint;
    fills = [];
    marketSnapshots = [];
    pendingTxs = 0;
  };

  for await (const [sig, tx] of fetched) {
    if (signal?.aborted) break;
    if (sig.slot === cp?.slot && skip.has(sig.signature)) continue;
    try {
      const events = eventsOf(tx);
      for (const e of events) if (e.protocol === 'alpha' && e.kind === 'trade') ctx.prices.record(e.body);
      const tokens = marketTokensOf(events);
      await markets.ensure(tokens);
      await ctx.tokens.ensure(
        tokens.flatMap((t) => {
          const m = markets.get(t);
          return m ? [m.indexMint, m.longMint, m.shortMint] : [];
        }),
      );
      const time = (tx.blockTime ?? sig.blockTime ?? 0) * 1000;
      const out = fillsOfTx(events, { signature: sig.signature, slot: sig.slot, time, marketOf: (t) => markets.get(t), decimalsOf: (m) => ctx.tokens.get(m), chain: ctx.chain });
      for (const r of out.rejected) ctx.quarantine.add(r);
      fills.push(...out.fills);
      if (ctx.history) marketSnapshots.push(...ctx.history.record(tx, time, (t) => ctx.prices.get(t)));
    } catch (err) {
      // the endpoint failing: stop here, the pass is retried from the checkpoint
      if (err instanceof RpcError) throw new Error(`solana: transaction ${sig.signature} (slot ${sig.slot}): ${err.message}`, { cause: err });
      // anything else is this transaction's own: set aside with the reason, and go on
      ctx.quarantine.add({ tx: sig.signature, slot: sig.slot, event: 'transaction', reason: `cannot decode: ${(err as Error).message}` });
    }
    lastSlot = sig.slot;
    lastTime = (tx.blockTime ?? sig.blockTime ?? 0) * 1000;
    checkpoint = checkpoint && checkpoint.slot === sig.slot ? { slot: sig.slot, done: [...checkpoint.done, sig.signature] } : { slot: sig.slot, done: [sig.signature] };
    pendingTxs++;
    result.txs++;
    if (opts.showProgress) {
      if (!bar) {
        startSlot = sig.slot;
        bar = progress('solana: backfill', Math.max(1, tipSlot - startSlot));
      }
      bar.update(sig.slot - startSlot, `${(result.fills + fills.length).toLocaleString('en-US')} fills, slot ${sig.slot.toLocaleString('en-US')} of ${tipSlot.toLocaleString('en-US')}`);
    }
    if (fills.length >= batchFills || pendingTxs >= batchTxs) await flush();
  }
  await flush();
  // everything up to each program's newest signature is in: the next pass reads only what is new
  if (!signal?.aborted) for (const p of plans) if (p.newest[0]) ctx.newest.set(p.program, p.newest[0].signature);
  if (opts.showProgress) {
    log.success(`solana: backfill to slot ${result.checkpoint?.slot ?? '-'}: ${result.txs} transactions, ${result.fills} new fills (${result.duplicates} duplicates), ${rpc.requests} RPC requests`);
  }
  return result;
}
