import { existsSync, readdirSync } from 'node:fs';
import { readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fsyncPathAsync, writeFileAtomicAsync } from '../server/lib/fs-atomic.ts';
import { journalDir } from '../server/journal/layout.ts';
import { log } from '../server/lib/log.ts';

/**
 * A redo record of one partition's compaction: once it is on disk the swap completes, even
 * after a crash (the compacted file is complete and fsynced before the intent is written).
 */
export interface CompactionIntent {
  /** the compacted file, under a `.tmp-` name in the journal root until renamed */
  tmp: string;
  /** its final name in the partition */
  final: string;
  /** the files it replaces */
  remove: string[];
}

const INTENT = /^compact-.+\.intent\.json$/;

/** Path of the intent of one partition's compaction. */
export function compactionIntentPath(dataDir: string, kind: string, protocol: string, day: string): string {
  return join(journalDir(dataDir), `compact-${kind}-${protocol}-${day}.intent.json`);
}

/** Writes the intent durably (atomic rename, fsynced); it lists every replaced file, so it can be hundreds of KB. */
export async function writeCompactionIntent(path: string, intent: CompactionIntent): Promise<void> {
  await writeFileAtomicAsync(path, JSON.stringify(intent));
}

/** Step hook for crash tests: called after each step of the swap with its name. */
export type SwapStep = 'renamed' | 'removed';

/**
 * Completes a written compaction intent; idempotent (each step checks what is already done):
 * rename the compacted file into place, fsync the partition, delete the replaced files, fsync,
 * delete the intent. Asynchronous: an open partition's run is thousands of files, whose deletes
 * (~5 µs each) and directory fsyncs would otherwise hold a serving process's event loop.
 */
export async function applyCompactionIntent(intentPath: string, after: (step: SwapStep) => void = () => {}): Promise<void> {
  const intent = JSON.parse(await readFile(intentPath, 'utf8')) as CompactionIntent;
  const dir = dirname(intent.final);
  if (existsSync(intent.tmp)) await rename(intent.tmp, intent.final);
  await fsyncPathAsync(dir);
  after('renamed');
  const stale = intent.remove.filter((f) => f !== intent.final);
  for (let i = 0; i < stale.length; i += UNLINKS_AT_ONCE) {
    await Promise.all(stale.slice(i, i + UNLINKS_AT_ONCE).map((f) => unlink(f).catch(ignoreMissing)));
  }
  await fsyncPathAsync(dir);
  after('removed');
  await unlink(intentPath);
}

/** Deletes in flight at once (libuv's pool has 4 threads; more only queue). */
const UNLINKS_AT_ONCE = 64;

/** A file already deleted (by the run that crashed) is what the step wants. */
function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}

/**
 * Start-up recovery (called by `recoverJournal` before it sweeps temp files): rolls forward every
 * compaction whose intent was written. A compaction that crashed before its intent left only a
 * `.tmp-` file, which the sweep removes: the partition is then as it was.
 */
export async function recoverCompactions(dataDir: string): Promise<void> {
  const root = journalDir(dataDir);
  if (!existsSync(root)) return;
  for (const f of readdirSync(root)
    .filter((n) => INTENT.test(n))
    .sort()) {
    log.warn(`journal: completing interrupted compaction ${f}`);
    await applyCompactionIntent(join(root, f));
  }
}
