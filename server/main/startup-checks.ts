/**
 * What `start` checks before it writes any file, so that a start that cannot work fails in one
 * line (exit 1) and leaves the data directory as it was: the port is free, no other process holds
 * the data directory (a pid lock file, `<data>/server.lock`), and the source can be reached.
 * The other commands that open a data directory (`simulate`, `rebuild`, `replay`, `jobs run`)
 * take the same lock ({@link withDataLock}), so any two of them meet this one line, not DuckDB's.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { replayRoot } from '../sources/replay/reader.ts';
import { SolanaRpc } from '../sources/solana/rpc.ts';
import { checkEndpoint } from '../sources/solana/startup-check.ts';

/** Fails when nothing can listen on `host:port` (in use, or not allowed); port 0 always passes. */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'is in use by another process' : err.code === 'EACCES' ? 'needs privileges to bind' : `cannot be bound (${err.code ?? err.message})`;
      reject(new Error(`port ${port} on ${host} ${why}: stop it, or start with --port <another> (or $PORT)`));
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Path of the server lock of a data directory. */
export function lockPath(dataDir: string): string {
  return join(dataDir, 'server.lock');
}

interface LockBody {
  pid: number;
  started: string;
  command: string;
}

/** Whether process `pid` is alive (EPERM: alive, owned by another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(path: string): LockBody | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockBody;
  } catch {
    return undefined; // torn or foreign: treated as stale
  }
}

/**
 * Takes the data directory for this process: creates `<data>/server.lock` (exclusively) with our
 * pid. When it exists and its process is alive, fails in one line naming that process; a lock
 * left by a process that died (kill -9) is taken over. Returns the release, which removes the file
 * if it is still ours (also run when the process exits).
 */
export function acquireDataLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  const body: LockBody = { pid: process.pid, started: new Date().toISOString(), command: process.argv.slice(1).join(' ') };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      try {
        writeSync(fd, `${JSON.stringify(body)}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const other = readLock(path);
      if (other && other.pid !== process.pid && alive(other.pid)) {
        throw new Error(`data directory ${dataDir} is in use by process ${other.pid} (since ${other.started}: ${other.command}); stop it first, or use another --data`);
      }
      unlinkSync(path); // stale: its process is gone
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (existsSync(path) && readLock(path)?.pid === process.pid) unlinkSync(path);
  };
  process.once('exit', release);
  return release;
}

/** The one line DuckDB's own lock refusal becomes (another program, not a server, holds the files). */
export function plainLockError(err: unknown, dataDir: string): Error {
  const message = (err as Error).message ?? String(err);
  if (!/Could not set lock on file/i.test(message)) return err as Error;
  const pid = /PID (\d+)/.exec(message)?.[1];
  return new Error(`data directory ${dataDir} is in use by ${pid ? `process ${pid}` : 'another process'} (it holds the derived state's database); stop it first, or use another --data`);
}

/**
 * Runs `fn`, a command's work on the data directory, holding its lock ({@link acquireDataLock});
 * given back when `fn` ends, however it ends. A DuckDB lock refusal inside (a program that holds
 * the derived state's file without the lock) becomes {@link plainLockError}'s one line.
 */
export async function withDataLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const release = acquireDataLock(dataDir);
  try {
    return await fn();
  } catch (err) {
    throw plainLockError(err, dataDir);
  } finally {
    release();
  }
}

/** Fails in one line when the source cannot be reached: the RPC endpoint answers, the replayed journal exists. */
export async function checkSourceReachable(source: string, opts: { rpcUrl?: string; from?: string }): Promise<void> {
  if (source === 'solana') {
    // reachable, mainnet's genesis, both programs present: one line naming the endpoint's origin
    await checkEndpoint(new SolanaRpc({ url: opts.rpcUrl!, timeoutMs: 15_000, backoffMs: 500 }));
  }
  if (source === 'replay' && opts.from) replayRoot(opts.from); // throws its one line when there is no journal
}
