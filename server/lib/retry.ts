/**
 * Background retries for work that may fail for a while and must not hold up its caller: the
 * checkpoint after a backfill (refused while long reads pin committed changes, see
 * Writer.checkpoint) and lowering DuckDB's memory limit once serving (refused until that
 * checkpoint lets it free memory). {@link tryThenRetry} is what both call.
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
  /** the first failure was logged already (by {@link tryThenRetry}) */
  quiet?: boolean;
}

/**
 * Runs `attempt` now and awaits it; when it fails, tries `retry` (default `attempt`) again every
 * `everyMs` in the background, up to `attempts` more times, until `onClose` reports the owner
 * closing. Resolves whether the first attempt succeeded; `done` runs on whichever succeeds.
 */
export async function tryThenRetry(
  attempt: () => Promise<void>,
  opts: Omit<RetryOptions, 'signal'> & {
    retry?: () => Promise<void>;
    done: () => void;
    onClose: (stop: () => void) => void;
  },
): Promise<boolean> {
  try {
    await attempt();
    opts.done();
    return true;
  } catch (err) {
    log.warn(`${opts.what}: failed (${(err as Error).message}); trying again every ${opts.everyMs / 1000} s`);
  }
  const stop = new AbortController();
  opts.onClose(() => stop.abort());
  void (async () => {
    await new Promise((resolve) => setTimeout(resolve, opts.everyMs).unref());
    if (await retryInBackground(opts.retry ?? attempt, { ...opts, signal: stop.signal, quiet: true })) opts.done();
  })();
  return false;
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
      if (n > 1 || opts.quiet) log.info(`${opts.what}: done${opts.quiet ? '' : ` at attempt ${n}`}`);
      return true;
    } catch (err) {
      if (n === 1 && !opts.quiet) log.warn(`${opts.what}: failed (${(err as Error).message}); trying again every ${opts.everyMs / 1000} s`);
      if (n === opts.attempts) {
        log.warn(`${opts.what}: gave up after ${n} attempts (${(err as Error).message})`);
        return false;
      }
      await new Promise((resolve) => setTimeout(resolve, opts.everyMs).unref());
    }
  }
  return false;
}
