/**
 * Reads files once, sequentially, so that the kernel's page cache holds them.
 * `GET /v1/alpha/accounts/{address}/history` reads an account's rows and records from the lifecycle
 * store's account files (server/read/lifecycles/lifecycle-accounts.ts) with a few scattered reads; from the disk
 * each costs milliseconds, so after anything that flushed the page cache (a `rebuild` writes gigabytes)
 * its p99 stays several times the warm one until the requests have touched most accounts
 * (docs/performance.md, "Page cache warm-up"). Reading the ~1 GB of account files once at start costs about a second of the
 * disk's time in the background, in 1 MB reads, and little CPU.
 */
import { open, stat } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { log } from './log.ts';

const CHUNK = 1_048_576;

/**
 * Reads `paths` through (missing files are skipped), unless together they exceed `budget` bytes
 * (default an eighth of the machine's memory: a page cache too small for them would only evict
 * other hot pages for nothing). Resolves with the bytes read; never rejects.
 */
export async function warmPageCache(paths: readonly string[], budget = totalmem() / 8): Promise<number> {
  const t0 = performance.now();
  try {
    const sizes = await Promise.all(
      paths.map((p) =>
        stat(p).then(
          (s) => s.size,
          () => 0,
        ),
      ),
    );
    const total = sizes.reduce((a, b) => a + b, 0);
    if (total > budget) {
      log.debug(`page cache: not warming ${(total / 1e6).toFixed(0)} MB (over the ${(budget / 1e6).toFixed(0)} MB budget)`);
      return 0;
    }
    const buffer = Buffer.allocUnsafe(CHUNK);
    let read = 0;
    for (const path of paths) {
      const file = await open(path, 'r').catch(() => null);
      if (!file) continue;
      try {
        for (let at = 0; ; ) {
          const { bytesRead } = await file.read(buffer, 0, CHUNK, at);
          if (bytesRead === 0) break;
          at += bytesRead;
          read += bytesRead;
        }
      } finally {
        await file.close();
      }
    }
    log.debug(`page cache: read ${(read / 1e6).toFixed(0)} MB of ${paths.length} files in ${(performance.now() - t0).toFixed(0)} ms`);
    return read;
  } catch (err) {
    log.debug('page cache: warming stopped', err);
    return 0;
  }
}
