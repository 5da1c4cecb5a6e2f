import { chmodSync, closeSync, fsync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { chmod, open, rename, unlink } from 'node:fs/promises';
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

/** fsyncs an open file descriptor off the event loop (libuv's pool). */
export function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/** {@link fsyncPath} off the event loop (libuv's pool). */
export async function fsyncPathAsync(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * The first half of {@link writeFileAtomicAsync}: writes `text` to a fresh `.tmp-` sibling of
 * `path` with exactly `mode` and fsyncs it, off the event loop; returns the temp file's path. The
 * caller renames it over `path` and fsyncs the directory (or removes it), e.g. synchronously, to
 * order it against other writers of the same file (server/limits/credits.ts).
 */
export async function writeTempFileAsync(path: string, text: string | Uint8Array, mode = 0o644): Promise<string> {
  const tmp = join(dirname(path), `.tmp-${basename(path)}-${process.pid}-${++tmpCounter}`);
  try {
    const fh = await open(tmp, 'w', mode);
    try {
      await fh.writeFile(typeof text === 'string' ? Buffer.from(text) : text);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await chmod(tmp, mode);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  return tmp;
}

/**
 * {@link writeFileAtomic} with its writes and fsyncs off the event loop, for the paths that run
 * beside request handling (every append's journal commit, the live simulator's saved state): the
 * synchronous one held the loop for each fsync, 8-14 ms an append on the bench machine, which
 * requests arriving meanwhile waited out (the live p99). Same steps, same guarantees.
 */
export async function writeFileAtomicAsync(path: string, text: string | Uint8Array, mode = 0o644): Promise<void> {
  const tmp = await writeTempFileAsync(path, text, mode);
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncPathAsync(dirname(path));
}
