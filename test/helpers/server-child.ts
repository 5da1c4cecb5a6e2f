import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** A `start` child process with its combined output so far. */
export interface ServerChild {
  child: ChildProcess;
  output(): string;
  /** resolves with the exit code */
  exited: Promise<number | null>;
  /** waits until the output contains `text` (or the process exits); true when it did */
  waitFor(text: string, timeoutMs?: number): Promise<boolean>;
}

/** Spawns `tsx server/main/cli.ts start ...args` with PERPS_LOG_LEVEL 3 unless `env` says otherwise. */
export function startChild(args: string[], env: NodeJS.ProcessEnv = {}): ServerChild {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'start', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PERPS_LOG_LEVEL: '3', ...env },
  });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      done = true;
      resolve(code);
    }),
  );
  return {
    child,
    output: () => out,
    exited,
    async waitFor(text, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!out.includes(text) && !done && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return out.includes(text);
    },
  };
}

/** A port free now (bound once by the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
