/**
 * Following the chain after the backfill: the same sync pass (backfill.ts) every `pollMs`,
 * from the journal's checkpoint to the finalized tip. A pass that fails (RPC down after its
 * retries, a market not known yet) is logged and retried at the next poll, with a growing
 * pause, from the checkpoint: nothing is lost or doubled.
 */
import { log } from '../../log.ts';
import { PositionChain } from './chain.ts';
import { SOLANA_SOURCE, syncToTip, type SyncContext, type SyncOptions } from './backfill.ts';
import { pollAlphaPositions, pollHour } from './positions.ts';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    }, { once: true });
  });

/**
 * The full refresh: `poll` snapshots of the open alpha positions, once an hour at minute 59
 * (after that pass's fills, so the snapshots are not older than the fills they follow).
 */
async function pollPositions(ctx: SyncContext, now: number): Promise<void> {
  const time = Math.floor(now / 60_000) * 60_000;
  const positionSnapshots = await pollAlphaPositions(ctx.rpc, ctx, time);
  if (positionSnapshots.length) await ctx.service.append({ fills: [], marketSnapshots: [], positionSnapshots }, { source: SOLANA_SOURCE });
  log.debug(`solana: ${positionSnapshots.length} poll snapshots`);
}

/** Runs sync passes until `signal` aborts; polls positions on the full-refresh schedule. */
export async function follow(ctx: SyncContext, opts: SyncOptions & { signal: AbortSignal; pollMs: number }): Promise<void> {
  let failures = 0;
  let polled = pollHour(Date.now());
  while (!opts.signal.aborted) {
    try {
      const r = await syncToTip(ctx, { ...opts, showProgress: false });
      if (r.fills > 0) log.debug(`solana: +${r.fills} fills to slot ${r.checkpoint?.slot}`);
      const tip = await ctx.rpc.getSlot();
      ctx.service.source.set('following', { progress: null, etaS: null, completeToMs: null, slotLag: Math.max(0, tip - r.tipSlot), reason: null });
      const now = Date.now();
      if (pollHour(now) !== polled) {
        polled = pollHour(now);
        await pollPositions(ctx, now);
      }
      failures = 0;
    } catch (err) {
      if (opts.signal.aborted) break;
      failures++;
      const reason = (err as Error).message.split('\n')[0]!;
      ctx.service.source.set('retrying', { reason });
      log.error(`solana: sync failed (${failures} in a row), retrying from the checkpoint: ${reason}`);
      // fills decoded after the last committed batch left the chain ahead of the journal
      ctx.chain = await PositionChain.load(ctx.service.db).catch(() => ctx.chain);
    }
    await sleep(opts.pollMs * Math.min(60, 2 ** failures), opts.signal);
  }
}
