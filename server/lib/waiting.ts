/**
 * Waiting helpers of the in-memory working sets (server/http/*-index.ts, history-mirror.ts).
 */

/** Lets the event loop serve other requests between two long synchronous steps. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Resolves once `ready()` says so, checking every 5 ms; throws after `timeoutMs` naming `what`
 * (tests and the app's `appLoaded`, which want the in-memory paths from the first request).
 */
export async function waitUntil(ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await ready())) {
    if (Date.now() > until) throw new Error(`${what}: not loaded in time`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
