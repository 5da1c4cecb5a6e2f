/**
 * `start`'s checks before any file is written (server/main/startup-checks.ts), through the CLI: a port
 * in use, a data directory another server holds, an unreachable source. Each fails in one line,
 * exit 1, and leaves the data directory as it was.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireDataLock, lockPath } from '../../server/main/startup-checks.ts';
import { tempDataDir } from '../helpers/fixtures.ts';
import { freePort, startChild } from '../helpers/server-child.ts';

const { dir, cleanup } = tempDataDir();
afterAll(cleanup);

describe('start-up checks', () => {
  it('a port in use fails in one line before the data directory (and its demo keys) exists', async () => {
    const port = await freePort();
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(port, '127.0.0.1', r));
    try {
      const fresh = join(dir, 'port');
      const s = startChild(['--source', 'none', '--data', fresh, '--port', String(port)]);
      expect(await s.exited).toBe(1);
      expect(s.output()).toContain(`port ${port} on 127.0.0.1 is in use by another process`);
      expect(s.output()).not.toMatch(/\n\s+at /);
      expect(existsSync(fresh)).toBe(false);
    } finally {
      busy.close();
    }
  }, 30_000);

  it('a second server on the same data directory fails in one line naming the first; the lock goes with the first', async () => {
    const shared = join(dir, 'shared');
    const first = startChild(['--source', 'none', '--data', shared, '--port', String(await freePort())]);
    try {
      expect(await first.waitFor('serving')).toBe(true);
      const demo = readFileSync(join(shared, 'demo-keys.json'), 'utf8');
      const second = startChild(['--source', 'none', '--data', shared, '--port', String(await freePort())]);
      expect(await second.exited).toBe(1);
      expect(second.output()).toContain(`data directory ${shared} is in use by process ${first.child.pid}`);
      expect(second.output()).not.toMatch(/Could not set lock|IO Error|\n\s+at /);
      // the first server's files are as they were: its lock, its demo keys
      expect(JSON.parse(readFileSync(lockPath(shared), 'utf8')).pid).toBe(first.child.pid);
      expect(readFileSync(join(shared, 'demo-keys.json'), 'utf8')).toBe(demo);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);
    expect(existsSync(lockPath(shared))).toBe(false);
  }, 60_000);

  it('a lock left by a dead process is taken over; a live one is named', () => {
    const d = join(dir, 'stale');
    const release = acquireDataLock(d);
    release();
    // pid 2^22 + 1 is above Linux's pid_max: never alive
    writeFileSync(lockPath(d), JSON.stringify({ pid: 4_194_305, started: '2026-01-01T00:00:00.000Z', command: 'old' }));
    const again = acquireDataLock(d);
    writeFileSync(lockPath(d), JSON.stringify({ pid: process.ppid, started: '2026-01-01T00:00:00.000Z', command: 'server.ts start' }));
    expect(() => acquireDataLock(d)).toThrow(`data directory ${d} is in use by process ${process.ppid} (since 2026-01-01T00:00:00.000Z: server.ts start)`);
    again(); // not ours any more: left alone
    expect(existsSync(lockPath(d))).toBe(true);
  });

  it('an unreachable RPC endpoint fails in one line before anything is written', async () => {
    const fresh = join(dir, 'rpc');
    const closed = await freePort();
    const s = startChild(['--source', 'solana', '--rpc', `http://127.0.0.1:${closed}`, '--data', fresh, '--port', String(await freePort())]);
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain(`the RPC at http://127.0.0.1:${closed} is not usable`);
    expect(s.output()).not.toMatch(/\n\s+at /);
    expect(existsSync(fresh)).toBe(false);
  }, 30_000);

  it('a replay of a directory without a journal fails before anything is written', async () => {
    const fresh = join(dir, 'replay');
    const s = startChild(['--source', 'replay', '--from', join(dir, 'nothing-here'), '--data', fresh, '--port', String(await freePort())]);
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('holds no journal');
    expect(existsSync(fresh)).toBe(false);
  }, 30_000);
});

/** Runs `tsx server/main/cli.ts ...args`; resolves with its exit code and combined output. */
function cli(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PERPS_LOG_LEVEL: '3' },
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('the data directory lock of the other commands', () => {
  it('simulate, rebuild, replay and jobs run on a directory a server holds fail in one line naming it, and leave its lock', async () => {
    const shared = join(dir, 'commands');
    const server = startChild(['--source', 'none', '--data', shared, '--port', String(await freePort())]);
    try {
      expect(await server.waitFor('serving')).toBe(true);
      const commands = [['simulate', '--until', '2025-03-13T00:00:00Z'], ['rebuild'], ['replay', '--from', shared], ['jobs', 'run', 'checkpoint']];
      for (const args of commands) {
        const r = await cli([...args, '--data', shared]);
        expect(r.code, args[0]).toBe(1);
        expect(r.output, args[0]).toContain(`data directory ${shared} is in use by process ${server.child.pid}`);
        expect(r.output, args[0]).not.toMatch(/Could not set lock|IO Error|\n\s+at /);
        expect(JSON.parse(readFileSync(lockPath(shared), 'utf8')).pid).toBe(server.child.pid);
      }
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    // the server gone, the same commands run, and each gives the directory back when done
    for (const args of [['jobs', 'run', 'checkpoint'], ['rebuild']]) {
      const r = await cli([...args, '--data', shared]);
      expect(r.code, `${args.join(' ')}: ${r.output}`).toBe(0);
      expect(existsSync(lockPath(shared)), args[0]).toBe(false);
    }
  }, 120_000);

  it('a server does not start on a directory a command holds: it names the command', async () => {
    const d = join(dir, 'held');
    mkdirSync(d, { recursive: true });
    // a command running: its lock names a live process (this test's)
    writeFileSync(lockPath(d), JSON.stringify({ pid: process.pid, started: '2026-01-01T00:00:00.000Z', command: 'server/main/cli.ts rebuild --data held' }));
    const s = startChild(['--source', 'none', '--data', d, '--port', String(await freePort())]);
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain(`data directory ${d} is in use by process ${process.pid} (since 2026-01-01T00:00:00.000Z: server/main/cli.ts rebuild --data held)`);
    const r = await cli(['simulate', '--until', '2025-03-13T00:00:00Z', '--data', d]);
    expect(r.code).toBe(1);
    expect(r.output).toContain(`data directory ${d} is in use by process ${process.pid}`);
    expect(existsSync(join(d, 'journal'))).toBe(false);
  }, 60_000);
});
