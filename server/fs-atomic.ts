import { chmodSync, closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

let tmpCounter = 0;

/** Flushes a file (or directory) to disk so a rename that follows is durable. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `text` (or bytes) to `path` so that a reader or a crash sees the old file or the new one, never a
 * half-written one: a `.tmp-` sibling is written with exactly `mode` (not subject to the
 * umask), fsynced, renamed over `path`, and the directory fsynced. Temp names start with `.tmp-`
 * so start-up sweeps (journal recovery) recognise leftovers.
 */
export function writeFileAtomic(path: string, text: string | Uint8Array, mode = 0o644): void {
  const tmp = join(dirname(path), `.tmp-${basename(path)}-${process.pid}-${++tmpCounter}`);
  const fd = openSync(tmp, 'w', mode);
  try {
    writeSync(fd, typeof text === 'string' ? Buffer.from(text) : text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw err;
  }
  fsyncPath(dirname(path));
}
