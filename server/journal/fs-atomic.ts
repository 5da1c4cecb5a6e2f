import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

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
 * Writes `text` to `path` so that a reader or a crash sees the old file or the new one, never a
 * half-written one: write a sibling temp file, fsync it, rename it over, fsync the directory.
 */
export function writeFileAtomic(path: string, text: string, mode = 0o644): void {
  const tmp = join(dirname(path), `.tmp-${basename(path)}-${process.pid}`);
  writeFileSync(tmp, text, { mode });
  fsyncPath(tmp);
  renameSync(tmp, path);
  fsyncPath(dirname(path));
}
