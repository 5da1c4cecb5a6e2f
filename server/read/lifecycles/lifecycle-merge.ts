/**
 * When the lifecycle store (server/read/lifecycles/lifecycle-store.ts) merges segments, and how it lets go of the
 * merged ones. Without merging, a segment per ~20,000 closes would pile up (live mode adds one every
 * few days: a lookup per segment for `GET /v1/alpha/accounts/{address}/history`,
 * `GET /v1/alpha/positions/{address}/{id}` and `GET /v1/alpha/positions/{address}/{id}/lifecycle`, and
 * three open files each, so a year or two of it would run into the process's file limit).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { log } from '../../lib/log.ts';
import { segmentFiles, type Segment } from './lifecycle-segment.ts';

/** How long a merged segment's files stay open for reads that began before the merge. */
const RETIRE_AFTER_MS = 60_000;

/**
 * Whether the last two segments (by lifecycle count, oldest first) should become one: while the
 * older holds at most twice as many as the newer. Like a binary counter, this keeps O(log n)
 * segments and rewrites each lifecycle O(log n) times (a new segment of ~20,000 merges with the
 * one before it when that one is no bigger than ~40,000, and so on up).
 */
export function shouldMergeLast(counts: readonly number[]): boolean {
  if (counts.length < 2) return false;
  return counts[counts.length - 2]! <= 2 * counts[counts.length - 1]!;
}

/**
 * Lets go of segments no longer named by the manifest: their files are unlinked now (an open
 * descriptor still reads them) and closed once reads that began before have ended; `pending`
 * holds them until then, so that the store's close can close them at once.
 */
export function retire(dir: string, segments: readonly Segment[], pending: Set<Segment>): void {
  for (const segment of segments) {
    for (const name of segmentFiles(segment.meta.file)) rmSync(join(dir, name), { force: true });
    pending.add(segment);
    const timer = setTimeout(() => {
      if (!pending.delete(segment)) return;
      segment.close().catch((err) => log.warn(`lifecycle store: closing ${segment.meta.file}`, err));
    }, RETIRE_AFTER_MS);
    timer.unref(); // never what keeps the process alive
  }
}
