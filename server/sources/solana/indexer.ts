/**
 * The `solana` source: indexes alpha (GMX-Solana) and beta (Jupiter Perpetuals) from a Solana
 * JSON-RPC endpoint into the journal. Checks the endpoint, loads alpha's markets and the
 * collateral chain of open positions, backfills from the checkpoint (or `--from`), then
 * follows the finalized tip. Everything goes through `service.append` with the source's
 * checkpoint ({ slot, done }): a restart or a crash resumes where the journal stands.
 *
 * Finalized commitment only: finalized blocks are never rolled back, so there is no rollback
 * path to maintain; the cost is ~13 s of latency behind the confirmed tip.
 */
import { backfillBuildingRollups } from '../../../jobs/rollup-refresh.ts';
import { log } from '../../lib/log.ts';
import type { Service } from '../../service.ts';
import { syncToTip, type SyncContext } from './backfill.ts';
import { Quarantine } from '../quarantine.ts';
import { PositionChain } from './chain.ts';
import { follow } from './follow.ts';
import { AlphaMarkets } from './markets.ts';
import { LatestPrices } from './latest-prices.ts';
import { SolanaRpc, type RpcOptions } from './rpc.ts';
import type { StartPoint } from './signatures.ts';
import { checkEndpoint } from './startup-check.ts';
import { TokenDecimals } from './tokens.ts';
import { AlphaMarketHistory } from './history/alpha-history.ts';
import { MarketStatePoller } from './state/poller.ts';

/** alpha's mainnet launch: the default start of a full backfill */
export const DEFAULT_FROM = Date.UTC(2025, 2, 12);

export interface SolanaSourceOptions extends RpcOptions {
  /** start when the journal has no solana checkpoint (default: alpha's launch) */
  from?: StartPoint;
  /** pause between follow passes (default 5 s); 0 = stop after the backfill */
  pollMs?: number;
  batchFills?: number;
  batchTxs?: number;
  /** the chain the endpoint must serve (default mainnet-beta's genesis hash) */
  genesisHash?: string;
  /** market snapshots from accounts every this many ms once following (default 60 s; 0 = none) */
  snapshotEveryMs?: number;
  /** position polls from accounts every this many ms (default 15 min) */
  positionsEveryMs?: number;
  /** epoch-ms clock of the market-state poller (tests pin it) */
  now?: () => number;
}

/** `--from` as a start point: a slot number or an ISO date / time. */
export function parseFrom(value: string | undefined): StartPoint | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return { slot: Number(value) };
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new Error(`--from: "${value}" is neither a slot number nor a date (e.g. 2025-03-12)`);
  return { time: t };
}

export interface SolanaFeed {
  /** resolves when the backfill is done (rejects if the endpoint is unusable) */
  readonly backfilled: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the source. An unusable endpoint (bad URL, unreachable, not Solana) rejects
 * `backfilled` with a clear error and stops the feed: no crash loop.
 */
export function startSolanaSource(service: Service, opts: SolanaSourceOptions): SolanaFeed {
  const rpc = new SolanaRpc(opts); // throws at once for a malformed URL
  const abort = new AbortController();
  const signal = abort.signal;
  let following: Promise<void> = Promise.resolve();
  let polling: Promise<void> = Promise.resolve();
  const status = service.source;
  status.setSource('solana');
  status.set('starting');
  const backfilled = (async () => {
    if (service.sourceCheckpoint('simulate') !== undefined) {
      throw new Error(`${service.dataDir} holds simulated data: index the chain into an empty data directory (--data)`);
    }
    const tip = await checkEndpoint(rpc, { genesisHash: opts.genesisHash });
    log.info(`solana: RPC ${rpc.origin} at finalized slot ${tip.toLocaleString('en-US')}`);
    const markets = new AlphaMarkets(rpc);
    await markets.load();
    const tokens = new TokenDecimals(rpc);
    await tokens.loadTokenMap();
    await tokens.ensure(markets.mints());
    const ctx: SyncContext = {
      service,
      rpc,
      markets,
      tokens,
      chain: await PositionChain.load(service.db),
      quarantine: new Quarantine(service.dataDir, 'solana', status),
      prices: new LatestPrices(),
      newest: new Map(),
    };
    // alpha's market state before polling, from the backfill's MarketStateUpdated events
    ctx.history = await AlphaMarketHistory.load(rpc, tokens).catch((err: unknown) => {
      log.warn(`solana: no market-state history (${(err as Error).message})`);
      return undefined;
    });
    const from = opts.from ?? { time: DEFAULT_FROM };
    const cp = service.sourceCheckpoint('solana') as { slot: number } | undefined;
    log.info(cp ? `solana: resuming at slot ${cp.slot.toLocaleString('en-US')}` : `solana: backfill from ${from.slot !== undefined ? `slot ${from.slot}` : new Date(from.time!).toISOString()}`);
    status.set('backfilling', { progress: 0, etaS: null, slotLag: cp ? Math.max(0, tip - cp.slot) : null, reason: null });
    const sync = { from, signal, batchFills: opts.batchFills, batchTxs: opts.batchTxs };
    try {
      // from an empty data directory, a backfill that reaches the tip leaves its rollups marked
      // refreshed: the first rollup refresh has nothing to recompute (jobs/rollup-refresh.ts)
      await backfillBuildingRollups(
        service,
        () => syncToTip(ctx, { ...sync, showProgress: true }),
        () => !signal.aborted,
      );
    } catch (err) {
      // the endpoint worked a moment ago: keep going, the follow loop retries from the checkpoint
      const reason = (err as Error).message.split('\n')[0]!;
      status.set('retrying', { reason });
      log.error(`solana: backfill interrupted, continuing from the checkpoint: ${reason}`);
      ctx.chain = await PositionChain.load(service.db);
    }
    if (!signal.aborted) service.source.set('following', { progress: null, etaS: null, completeToMs: null, reason: null });
    ctx.history = undefined; // following: the account poller writes the snapshots
    const followingChain = !signal.aborted && (opts.pollMs ?? 5_000) > 0;
    if (followingChain) following = follow(ctx, { ...sync, pollMs: opts.pollMs ?? 5_000 });
    // market state from accounts while following, once the journal holds the chain's present (a
    // Position account's state belongs to a lifecycle a backfill may not have reached yet)
    if (followingChain && (opts.snapshotEveryMs ?? 60_000) > 0) {
      const poller = new MarketStatePoller(service, rpc, ctx.prices, { snapshotEveryMs: opts.snapshotEveryMs, positionsEveryMs: opts.positionsEveryMs, now: opts.now });
      polling = poller.run(signal);
    }
  })();
  backfilled.catch((err: unknown) => status.set('stopped', { reason: (err as Error).message }));
  return {
    backfilled,
    async stop() {
      abort.abort();
      await backfilled.catch(() => {});
      await following;
      await polling;
      status.set('stopped', { reason: null });
    },
  };
}
