/**
 * Appends a source's batch, and when the append fails for a reason that may pass (a full disk,
 * an I/O error), pauses the source and tries the same batch again with backoff instead of
 * stopping it: the service's source state says `retrying` with the reason meanwhile (so `/health`
 * fails), and goes back to the phase it had once an append succeeds. A failed append leaves
 * nothing behind (server/journal/commit.ts), so the retry neither loses nor doubles a row.
 */
import type { IncomingBatch } from '../journal/rows.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';
import type { AppendOptions, AppendResult } from './append.ts';
import { InvalidBatchError } from './validate.ts';

export interface RetryPolicy {
  /** first wait, ms (doubled after each failure) */
  firstMs?: number;
  /** longest wait, ms */
  maxMs?: number;
  /** ends the retries: the batch is then not appended and undefined is returned */
  signal?: AbortSignal;
}

/** Waits `ms`, or less when `signal` aborts; resolves either way. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * A failure in one line an unauthenticated `/health` may show: a full disk by name, anything else
 * by its first line with file paths left out (the log has the whole error).
 */
export function reasonOf(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  const text = `${e?.message ?? String(err)} ${(e?.cause as Error | undefined)?.message ?? ''}`;
  if (e?.code === 'ENOSPC' || /ENOSPC|No space left on device/i.test(text)) return 'no space left on device';
  return (e?.message ?? String(err))
    .split('\n')[0]!
    .replace(/(?:[A-Za-z]:)?\/[^\s'"]+/g, '<path>')
    .slice(0, 200);
}

/** Whether a failed append may succeed later with the same batch. */
function retryable(service: Service, err: unknown): boolean {
  return !(err instanceof InvalidBatchError) && service.appendState().failure === undefined;
}

/**
 * {@link Service.append} that retries while the failure may pass. Resolves the append's result, or
 * undefined when `signal` ended the retries first; rejects on a failure no retry can fix (an
 * invalid batch, an append path that stopped).
 */
export async function appendRetrying(service: Service, batch: IncomingBatch, opts: AppendOptions, policy: RetryPolicy = {}): Promise<AppendResult | undefined> {
  const { firstMs = 1_000, maxMs = 30_000, signal } = policy;
  let wait = firstMs;
  let before: ReturnType<Service['source']['get']> | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await service.append(batch, opts);
      if (before) {
        service.source.set(before.phase, { reason: null });
        log.info(`source: appending again after ${attempt - 1} failed attempt(s)`);
      }
      return result;
    } catch (err) {
      if (!retryable(service, err)) throw err;
      before ??= service.source.get();
      const reason = `append failed: ${reasonOf(err)}`;
      service.source.set('retrying', { reason });
      if (attempt === 1 || wait >= maxMs) log.warn(`source: ${reason}; retrying in ${Math.round(wait / 1000)} s (nothing of the batch was written)`);
      await pause(wait, signal);
      if (signal?.aborted) {
        service.source.set(before.phase, { reason: null });
        return undefined;
      }
      wait = Math.min(maxMs, wait * 2);
    }
  }
}
