import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryInBackground } from '../server/retry.ts';

describe('retryInBackground', () => {
  afterEach(() => vi.useRealTimers());

  it('tries again after each failure, every interval, until it succeeds', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const done = retryInBackground(async () => {
      calls += 1;
      if (calls < 3) throw new Error('not yet');
    }, { what: 'test', everyMs: 1000, attempts: 5 });
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
});
