/**
 * Bench helpers around a server child process: start `server/main/cli.ts start` on a data directory and
 * a free port, wait until it answers (or, live, has caught up), read its RSS from /proc, stop it by pid.
 * The bench measures a real separate process (its own event loop and heap), not an in-process app.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { HealthBody } from '../http/health.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A free TCP port on 127.0.0.1 (asks the OS for one, then releases it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** A child process serving HTTP on `url`. */
export interface ServerChild {
  url: string;
  pid: number;
  /** resident set size of the process now, bytes (Linux /proc; NaN elsewhere) */
  rss(): number;
  /** peak resident set size so far, bytes (VmHWM) */
  peakRss(): number;
  /** CPU time the process has used so far, user + system, seconds (Linux /proc; NaN elsewhere) */
  cpuSeconds(): number;
  /** minor page faults of the process so far (Linux /proc; NaN elsewhere) */
  minorFaults(): number;
  /** SIGTERM, then SIGKILL after 5 s */
  stop(): Promise<void>;
}

function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on every Linux build in use). */
const USER_HZ = 100;

/** The fields of /proc/<pid>/stat after the parenthesized command name (which may itself hold ") "): state first. */
function procStatFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime (the 14th field) + stime (15th), seconds. */
function procCpuSeconds(pid: number): number {
  const fields = procStatFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / USER_HZ : Number.NaN;
}

/** minflt, the 10th field. */
function procMinorFaults(pid: number): number {
  const fields = procStatFields(pid);
  return fields ? Number(fields[7]) : Number.NaN;
}

/** Polls `probe` until it resolves true, up to `timeoutMs`. */
async function waitUntil(probe: () => Promise<boolean>, timeoutMs: number, what: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode} before it answered`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not answer within ${timeoutMs / 1000} s`);
}

/**
 * Spawns `node --import tsx <script> ...args` from the project root and waits until `GET readyPath`
 * answers (any HTTP status). stdout/stderr go to `logTo` (inherit by default).
 */
export async function spawnServer(opts: { script: string; args: string[]; port: number; readyPath: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; name: string }): Promise<ServerChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', opts.script, ...opts.args], {
    cwd: ROOT,
    // glibc's malloc arenas as `npm start` sets them (package.json): 2 instead of 8 per core
    // no access log (start writes one to stdout by default): the figures stay comparable with earlier runs
    env: { MALLOC_ARENA_MAX: '2', PERPS_ACCESS_LOG: 'off', ...process.env, PERPS_LOG_LEVEL: '1', ...opts.env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${opts.port}`;
  await waitUntil(
    async () => {
      const res = await fetch(url + opts.readyPath);
      await res.arrayBuffer();
      return true;
    },
    opts.timeoutMs ?? 120_000,
    opts.name,
    child,
  );
  const pid = child.pid as number;
  return {
    url,
    pid,
    rss: () => procStatusBytes(pid, 'VmRSS'),
    peakRss: () => procStatusBytes(pid, 'VmHWM'),
    cpuSeconds: () => procCpuSeconds(pid),
    minorFaults: () => procMinorFaults(pid),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Starts the API server (`start --source none`) on `dataDir` at a free port, with `env` added to its environment. */
export async function startApiServer(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<ServerChild> {
  const port = await freePort();
  return spawnServer({
    name: 'API server',
    script: 'server/main/cli.ts',
    args: ['start', '--data', dataDir, '--port', String(port), '--source', 'none'],
    env,
    port,
    readyPath: '/v1/openapi.json',
  });
}

/** The p-th percentile (0-100) of ascending numbers (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

/** Bytes as MiB with one decimal. */
export function mib(bytes: number): number {
  return Math.round((bytes / 1_048_576) * 10) / 10;
}

/**
 * Waits until the process has gone quiet (under `busyMs` of CPU per 250 ms, twice in a row; at
 * most `maxMs`): the server loads its in-memory working sets in the background after it first
 * answers, and the per-endpoint latencies are "after warm-up". Returns the seconds waited.
 */
export async function untilQuiet(child: ServerChild, busyMs = 15, maxMs = 240_000): Promise<number> {
  const t0 = performance.now();
  let quiet = 0;
  let last = child.cpuSeconds();
  while (quiet < 2 && performance.now() - t0 < maxMs && Number.isFinite(last)) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = child.cpuSeconds();
    quiet = (now - last) * 1000 < busyMs ? quiet + 1 : 0;
    last = now;
  }
  return (performance.now() - t0) / 1000;
}

/**
 * Waits until the server's read side is warm: `/health`'s `read_side.warming` false twice in a
 * row, 500 ms apart (at most `maxMs`). The lifecycle store and the history index build once per
 * derived state, beside a live source's appends, for a minute on the bench journal after a
 * `rebuild`: a CPU-quiet wait alone ended between two appends and measured the builds, not the
 * requests (docs/performance.md, "Warm read side before measuring"). Returns the seconds waited; throws if it stays warm.
 */
export async function untilWarm(child: ServerChild, maxMs = 300_000): Promise<number> {
  const t0 = performance.now();
  let warm = 0;
  while (warm < 2) {
    if (performance.now() - t0 > maxMs) throw new Error(`the API server's read side was still warming after ${maxMs / 1000} s`);
    warm = (await health(child)).read_side?.warming === false ? warm + 1 : 0;
    if (warm < 2) await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return (performance.now() - t0) / 1000;
}

/** The server's `/health` body now (its journal, response cache, read side and memory). */
export async function health(child: ServerChild): Promise<HealthBody> {
  const res = await fetch(`${child.url}/health`);
  return (await res.json()) as HealthBody;
}

/**
 * Waits until a server with a live source has caught up: it has appended, and its newest fill
 * (`/health`) is within `lagMs` of now (at most `maxMs`). Returns the seconds waited.
 */
export async function untilLive(child: ServerChild, lagMs = 120_000, maxMs = 600_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < maxMs) {
    const body = await health(child).catch(() => null);
    const last = Date.parse(body?.derived?.last_fill_time ?? '');
    // and this process has appended: a journal stopped a minute ago is near now before any backfill
    if (Date.now() - last <= lagMs && body?.append?.last_commit_at) return (performance.now() - t0) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the API server did not catch up to now within ${maxMs / 1000} s`);
}
