/**
 * Following the chain after the backfill: the same sync pass (backfill.ts) every `pollMs`,
 * from the journal's checkpoint to the finalized tip. A pass that fails (RPC down after its
 * retries, a market not known yet) is logged and retried at the next poll, with a growing
 * pause, from the checkpoint: nothing is lost or doubled.
 */
import { log } from '../../lib/log.ts';
import { PositionChain } from './chain.ts';
import { syncToTip, type SyncContext, type SyncOptions } from './backfill.ts';

/** Waits `ms` or until `signal` aborts; the abort listener goes with the wait (no pile-up across polls). */
export const waitOrAbort = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** Runs sync passes until `signal` aborts (position polls: state/poller.ts). */
export async function follow(ctx: SyncContext, opts: SyncOptions & { signal: AbortSignal; pollMs: number }): Promise<void> {
  let failures = 0;
  while (!opts.signal.aborted) {
    try {
      const r = await syncToTip(ctx, { ...opts, showProgress: false });
      if (r.fills > 0) log.debug(`solana: +${r.fills} fills to slot ${r.checkpoint?.slot}`);
      const tip = await ctx.rpc.getSlot();
      ctx.service.source.set('following', { progress: null, etaS: null, completeToMs: null, slotLag: Math.max(0, tip - r.tipSlot), reason: null });
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
    await waitOrAbort(opts.pollMs * Math.min(60, 2 ** failures), opts.signal);
  }
}
