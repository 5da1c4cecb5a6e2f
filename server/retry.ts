/**
 * Background retries for work that may fail for a while and must not hold up its caller: the
 * checkpoint after a backfill (refused while long reads pin committed changes, see
 * Writer.checkpoint) and lowering DuckDB's memory limit once serving (refused until that
 * checkpoint lets it free memory).
 */
import { log } from './log.ts';

export interface RetryOptions {
  /** what is tried, for the log */
  what: string;
  /** wait between attempts, ms */
  everyMs: number;
  /** attempts in all, the first included */
  attempts: number;
  /** stops the retries (e.g. the service closing) */
  signal?: AbortSignal;
}

/**
 * Runs `attempt` now and, while it fails, again every `everyMs` up to `attempts` times; resolves
 * true once it succeeds, false when it gave up or was aborted. Never rejects: the first failure
 * and the outcome are logged.
 */
export async function retryInBackground(attempt: () => Promise<void>, opts: RetryOptions): Promise<boolean> {
  for (let n = 1; n <= opts.attempts; n++) {
    if (opts.signal?.aborted) return false;
    try {
      await attempt();
      if (n > 1) log.info(`${opts.what}: done at attempt ${n}`);
      return true;
    } catch (err) {
      if (n === 1) log.warn(`${opts.what}: failed (${(err as Error).message}); trying again every ${opts.everyMs / 1000} s`);
      if (n === opts.attempts) {
        log.warn(`${opts.what}: gave up after ${n} attempts (${(err as Error).message})`);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, opts.everyMs).unref());
    }
  }
  return false;
}
