import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryInBackground, tryThenRetry } from '../../server/lib/retry.ts';

describe('retryInBackground', () => {
  afterEach(() => vi.useRealTimers());

  it('tries again after each failure, every interval, until it succeeds', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const done = retryInBackground(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error('not yet');
      },
      { what: 'test', everyMs: 1000, attempts: 5 },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
    await expect(done).resolves.toBe(true);
  });

  it('gives up after its attempts and when aborted, without rejecting', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fail = async () => {
      calls += 1;
      throw new Error('never');
    };
    const gaveUp = retryInBackground(fail, { what: 'test', everyMs: 10, attempts: 3 });
    await vi.advanceTimersByTimeAsync(100);
    await expect(gaveUp).resolves.toBe(false);
    expect(calls).toBe(3);
    const abort = new AbortController();
    calls = 0;
    const aborted = retryInBackground(fail, { what: 'test', everyMs: 10, attempts: 100, signal: abort.signal });
    await vi.advanceTimersByTimeAsync(25);
    abort.abort();
    await vi.advanceTimersByTimeAsync(100);
    await expect(aborted).resolves.toBe(false);
    expect(calls).toBe(3);
  });

  it('tryThenRetry awaits the first attempt, then retries (with its own attempt) in the background until done or closed', async () => {
    vi.useFakeTimers();
    const calls: string[] = [];
    let done = 0;
    let close: (() => void) | undefined;
    const first = await tryThenRetry(
      async () => {
        calls.push('first');
        throw new Error('refused');
      },
      {
        what: 'test',
        everyMs: 1000,
        attempts: 5,
        done: () => (done += 1),
        onClose: (stop) => (close = stop),
        retry: async () => {
          calls.push('retry');
          if (calls.length < 3) throw new Error('still refused');
        },
      },
    );
    expect(first).toBe(false);
    expect(calls).toEqual(['first']); // no second attempt at once
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['first', 'retry']);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(['first', 'retry', 'retry']);
    expect(done).toBe(1);
    // a first attempt that succeeds is done at once, nothing in the background
    expect(await tryThenRetry(async () => undefined, { what: 'test', everyMs: 1000, attempts: 5, done: () => (done += 1), onClose: () => undefined })).toBe(true);
    expect(done).toBe(2);
    // closing stops the retries
    calls.length = 0;
    await tryThenRetry(
      async () => {
        calls.push('first');
        throw new Error('refused');
      },
      { what: 'test', everyMs: 1000, attempts: 5, done: () => (done += 1), onClose: (stop) => (close = stop) },
    );
    close!();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual(['first']);
    expect(done).toBe(2);
  });
});
