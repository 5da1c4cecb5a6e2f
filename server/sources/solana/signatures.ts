/**
 * The programs' transaction signatures from a start point to the tip, oldest first.
 *
 * getSignaturesForAddress only walks backwards (newest first, `before` a signature). Holding a
 * year of signatures in memory is not an option, so a walk has two passes: the first goes back
 * from the tip to the start point and keeps one cursor per page (plus the newest page itself,
 * whose content moves as new transactions land); the second re-reads the pages from the oldest,
 * each anchored on its cursor, and yields their signatures reversed. Within a slot, the reversed
 * page order is the block's order (the node lists a slot's transactions newest first), so fills
 * of one position in one slot keep their execution order.
 */
import type { SignatureInfo, SolanaRpc } from './rpc.ts';

/** Where a walk starts: a slot (inclusive) and/or a time (epoch ms, inclusive). */
export interface StartPoint {
  slot?: number;
  time?: number;
}

const PAGE = 1000;

function before(sig: SignatureInfo, from: StartPoint): boolean {
  if (from.slot !== undefined && sig.slot < from.slot) return true;
  return from.time !== undefined && sig.blockTime !== null && sig.blockTime * 1000 < from.time;
}

/** The walk's plan: page cursors, oldest first (undefined = the newest page, held in `newest`). */
export interface WalkPlan {
  program: string;
  cursors: (string | undefined)[];
  newest: SignatureInfo[];
  /** slot of the newest signature (the tip the walk reaches) */
  tipSlot: number | null;
  until?: string;
}

/**
 * Pass 1: cursors of the pages that reach back to `from`. Costs one request per 1,000
 * signatures. `until` (the newest signature a previous pass completed) stops the walk there:
 * following the tip then reads only what is new.
 */
export async function planWalk(rpc: SolanaRpc, program: string, from: StartPoint, signal?: AbortSignal, until?: string): Promise<WalkPlan> {
  const newest = await rpc.getSignaturesForAddress(program, { limit: PAGE, until });
  const cursors: (string | undefined)[] = [undefined];
  let page = newest;
  while (page.length === PAGE && !before(page[page.length - 1]!, from) && !signal?.aborted) {
    const cursor = page[page.length - 1]!.signature;
    cursors.push(cursor);
    page = await rpc.getSignaturesForAddress(program, { before: cursor, until, limit: PAGE });
  }
  return { program, cursors: cursors.reverse(), newest, tipSlot: newest[0]?.slot ?? null, until };
}

/** Pass 2: the successful signatures at or after `from`, oldest first. */
export async function* walkSignatures(rpc: SolanaRpc, plan: WalkPlan, from: StartPoint, signal?: AbortSignal): AsyncGenerator<SignatureInfo> {
  for (const cursor of plan.cursors) {
    if (signal?.aborted) return;
    const page = cursor === undefined ? plan.newest : await rpc.getSignaturesForAddress(plan.program, { before: cursor, until: plan.until, limit: PAGE });
    for (let i = page.length - 1; i >= 0; i--) {
      const sig = page[i]!;
      if (sig.err == null && !before(sig, from)) yield sig;
    }
  }
}

/** Merges per-program ascending streams into one, by slot (ties keep the earlier stream first). */
export async function* mergeBySlot<T extends { slot: number }>(streams: AsyncGenerator<T>[]): AsyncGenerator<T & { stream: number }> {
  const heads = await Promise.all(streams.map((s) => s.next()));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) {
      const h = heads[i]!;
      if (!h.done && (best < 0 || h.value.slot < (heads[best]!.value as T).slot)) best = i;
    }
    if (best < 0) return;
    yield { ...(heads[best]!.value as T), stream: best };
    heads[best] = await streams[best]!.next();
  }
}
