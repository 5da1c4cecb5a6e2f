import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../helpers/fixtures.ts';

const run = promisify(execFile);
const { dir, cleanup } = tempDataDir();
afterAll(cleanup);

/** Runs `tsx server/main/cli.ts ...args` and returns stdout. */
async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', ...args], { env: { ...process.env, PERPS_LOG_LEVEL: '1' } });
  return stdout;
}

describe('keys CLI', () => {
  it('creates a key (printed once, last line), lists without secrets, changes plan, revokes', async () => {
    const out = await cli('keys', 'create', '--plan', 'pro', '--label', 'ci', '--data', dir);
    const key = out.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^pa_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
    const id = key.slice(3, 11);
    const list = await cli('keys', 'list', '--data', dir);
    expect(list).toContain(id);
    expect(list).not.toContain(key.slice(12));
    expect(readFileSync(join(dir, 'keys.json'), 'utf8')).not.toContain(key.slice(12));
    expect(statSync(join(dir, 'keys.json')).mode & 0o777).toBe(0o600);
    expect(await cli('keys', 'plan', id, 'premium', '--data', dir)).toContain('premium');
    expect(await cli('keys', 'revoke', id, '--data', dir)).toContain(`revoked ${id}`);
    expect(await cli('keys', 'list', '--data', dir)).toMatch(new RegExp(`${id}\\tpremium\\t.*\\trevoked`));
  }, 30_000);
});

describe('bad flags', () => {
  it('fail before the data directory is touched, with one line naming the flag and no stack', async () => {
    const untouched = join(dir, 'untouched');
    const cases: [string[], string][] = [
      [['simulate', '--scale', 'abc'], '--scale must be a number > 0, got "abc"'],
      [['simulate', '--seed', '1.5'], '--seed must be an integer, got "1.5"'],
      [['simulate', '--until', 'Nov 24'], '--until must be an RFC 3339 time'],
      [['start', '--port', '99999'], '--port must be an integer >= 0 and <= 65535, got "99999"'],
      [['start', '--live-every', '0'], '--live-every must be a number > 0, got "0"'],
      [['keys', 'create', '--plan', 'gold'], 'unknown plan "gold"'],
      [['rebuild'], `no data directory at ${untouched}: nothing to rebuild`],
    ];
    for (const [args, message] of cases) {
      const failed = await run(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', ...args, '--data', untouched], { env: { ...process.env, PERPS_LOG_LEVEL: '1' } }).then(
        () => undefined,
        (err: { code: number; stderr: string; stdout: string }) => err,
      );
      expect(failed, args.join(' ')).toBeDefined();
      expect(failed!.code).toBe(1);
      const output = failed!.stderr + failed!.stdout;
      expect(output).toContain(message);
      expect(output).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(untouched), args.join(' ')).toBe(false);
    }
    const badEnv = await run(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'start', '--data', untouched], { env: { ...process.env, PERPS_LOG_LEVEL: '1', PORT: 'http' } }).then(
      () => undefined,
      (err: { stderr: string; stdout: string }) => err,
    );
    expect(badEnv!.stderr + badEnv!.stdout).toContain('--port (or $PORT) must be an integer >= 0 and <= 65535, got "http"');
    expect(existsSync(untouched)).toBe(false);
  }, 60_000);
});

describe('start', () => {
  it('serves on a fresh data dir with demo keys, requires a key, and stops on SIGTERM', async () => {
    const fresh = join(dir, 'fresh');
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'start', '--source', 'none', '--data', fresh, '--port', String(port)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PERPS_LOG_LEVEL: '3' },
    });
    let logs = '';
    child.stdout.on('data', (b: Buffer) => (logs += b.toString()));
    child.stderr.on('data', (b: Buffer) => (logs += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while (!logs.includes('serving') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(logs).toContain('serving');
      const demo = JSON.parse(readFileSync(join(fresh, 'demo-keys.json'), 'utf8')) as { plan: string; key: string }[];
      expect(demo.map((k) => k.plan).sort()).toEqual(['premium', 'pro', 'starter', 'trial']);
      expect(statSync(join(fresh, 'demo-keys.json')).mode & 0o777).toBe(0o600);
      for (const k of demo) expect(logs).not.toContain(k.key);
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/v1/protocols`)).status).toBe(401);
      const ok = await fetch(`${base}/v1/protocols`, { headers: { 'x-api-key': demo[0]!.key } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { data: { id: string }[] }).data.map((p) => p.id)).toEqual(['alpha', 'beta']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // the one 200 above was metered, and the shutdown flushed it: `keys usage` sees it
    const trial = JSON.parse(readFileSync(join(fresh, 'demo-keys.json'), 'utf8')) as { key: string }[];
    const usage = await cli('keys', 'usage', trial[0]!.key.slice(3, 11), '--data', fresh);
    expect(usage).toMatch(/requests\t1\ncredits\t1\n/);
    expect(usage).toMatch(/allowance\t1 of [\d,]+ credits used/);
  }, 30_000);
});
