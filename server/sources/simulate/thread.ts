import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerGroup, WorkerMessage, WorkerStart } from './worker.ts';

// The worker is TypeScript like the rest: it registers tsx's loader itself, whatever started
// this process (node --import tsx, vitest), then loads the worker module.
const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
const WORKER = new URL('./worker.ts', import.meta.url).href;
const BOOT = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER)}); })`;

/**
 * Runs a simulator (restored from `start.state`) to `start.until` in a worker thread and yields
 * its groups of days in order. Taking a group lets the worker simulate the next one, so the
 * simulation overlaps whatever the caller does with the group. Leaving the loop early (break,
 * throw) stops the worker.
 */
export async function* simulateInThread(start: WorkerStart): AsyncGenerator<WorkerGroup, void, undefined> {
  const worker = new Worker(BOOT, { eval: true, workerData: start });
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  worker.on('message', (m: WorkerMessage) => {
    queue.push(m);
    wake?.();
  });
  worker.on('error', (err) => {
    failure = err;
    wake?.();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`simulator thread exited with code ${code}`);
    wake?.();
  });
  try {
    for (;;) {
      while (queue.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      const m = queue.shift()!;
      if (m.type === 'done') return;
      if (m.type === 'error') throw new Error(`simulator thread failed: ${m.message}`);
      worker.postMessage({ type: 'ack' });
      yield m;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
