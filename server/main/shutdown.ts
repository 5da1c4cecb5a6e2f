import { log } from '../lib/log.ts';

/** One step of an orderly shutdown: a name for the log and what to do. */
export type ShutdownStep = [name: string, run: () => unknown];

/**
 * Runs shutdown steps one after the other, in the given order, each awaited. A step that fails is
 * logged and the next ones still run (closing the database matters even if a socket would not
 * close). Returns false when any step failed.
 */
export async function runShutdown(steps: readonly ShutdownStep[]): Promise<boolean> {
  let ok = true;
  for (const [name, run] of steps) {
    const started = performance.now();
    try {
      await run();
      log.debug(`shutdown: ${name} stopped in ${(performance.now() - started).toFixed(0)} ms`);
    } catch (err) {
      ok = false;
      log.error(`shutdown: stopping ${name} failed`, err);
    }
  }
  return ok;
}
