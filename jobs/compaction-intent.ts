import { existsSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fsyncPath, writeFileAtomic } from '../server/fs-atomic.ts';
import { journalDir } from '../server/journal/layout.ts';
import { log } from '../server/log.ts';

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

/** Writes the intent durably (atomic rename, fsynced). */
export function writeCompactionIntent(path: string, intent: CompactionIntent): void {
  writeFileAtomic(path, JSON.stringify(intent));
}

/** Step hook for crash tests: called after each step of the swap with its name. */
export type SwapStep = 'renamed' | 'removed';

/**
 * Completes a written compaction intent; idempotent (each step checks what is already done):
 * rename the compacted file into place, fsync the partition, delete the replaced files, fsync,
 * delete the intent.
 */
export function applyCompactionIntent(intentPath: string, after: (step: SwapStep) => void = () => {}): void {
  const intent = JSON.parse(readFileSync(intentPath, 'utf8')) as CompactionIntent;
  const dir = dirname(intent.final);
  if (existsSync(intent.tmp)) renameSync(intent.tmp, intent.final);
  fsyncPath(dir);
  after('renamed');
  for (const f of intent.remove) if (f !== intent.final && existsSync(f)) unlinkSync(f);
  fsyncPath(dir);
  after('removed');
  unlinkSync(intentPath);
}

/**
 * Start-up recovery (called by `recoverJournal` before it sweeps temp files): rolls forward every
 * compaction whose intent was written. A compaction that crashed before its intent left only a
 * `.tmp-` file, which the sweep removes: the partition is then as it was.
 */
export function recoverCompactions(dataDir: string): void {
  const root = journalDir(dataDir);
  if (!existsSync(root)) return;
  for (const f of readdirSync(root).filter((n) => INTENT.test(n)).sort()) {
    log.warn(`journal: completing interrupted compaction ${f}`);
    applyCompactionIntent(join(root, f));
  }
}
