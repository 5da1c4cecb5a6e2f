import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { journalDir } from './layout.ts';
import { writeFileAtomicAsync } from '../lib/fs-atomic.ts';

/** What the journal has committed: enough to resume without losing or repeating anything. */
export interface Checkpoint {
  /** number of the last committed batch (0 = empty journal) */
  commit: number;
  /** last assigned fill seq (0 = none) */
  lastSeq: number;
  /** next lifecycle surrogate key to assign */
  nextPositionId: number;
  /** per-source resume points (e.g. `{ simulate: { simulatedTo } }`) */
  sources: Record<string, unknown>;
}

export const EMPTY_CHECKPOINT: Checkpoint = { commit: 0, lastSeq: 0, nextPositionId: 1, sources: {} };

export function checkpointPath(dataDir: string): string {
  return join(journalDir(dataDir), 'checkpoint.json');
}

export function readCheckpoint(dataDir: string): Checkpoint {
  const path = checkpointPath(dataDir);
  if (!existsSync(path)) return { ...EMPTY_CHECKPOINT, sources: {} };
  return JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
}

/** Writes the checkpoint atomically (temp file, fsync, rename, directory fsync), off the event loop. */
export async function writeCheckpointAsync(dataDir: string, cp: Checkpoint): Promise<void> {
  await writeFileAtomicAsync(checkpointPath(dataDir), JSON.stringify(cp, null, 2));
}
