import type { Writer } from '../db/writer.ts';
import type { Watermark } from './apply.ts';
import { writeJobNumber } from '../../jobs/job-state.ts';

/** Where the rollup refresh (jobs/rollup-refresh.ts) keeps the derived position it covered. */
export const ROLLUP_REFRESH_SEQ_KEY = 'rollup_refresh_seq';
export const ROLLUP_REFRESH_COMMIT_KEY = 'rollup_refresh_commit';

/**
 * Records that the rollups are what a refresh would compute up to `mark`: a catch-up that built
 * them from an empty state (a rebuild, or a start on a deleted or outdated state) computed them
 * from the journal itself, so there is no drift to repair, and the next refresh starts at `mark`
 * instead of recomputing every bucket (minutes of the writer's time right after every rebuild).
 * Inside the caller's transaction. It lives with the derive steps, which call it, so that they
 * need nothing from the job that reads the mark.
 */
export async function markRollupsRefreshed(w: Writer, mark: Watermark): Promise<void> {
  await writeJobNumber(w, ROLLUP_REFRESH_SEQ_KEY, mark.seq);
  await writeJobNumber(w, ROLLUP_REFRESH_COMMIT_KEY, mark.commit);
}
