import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../helpers/fixtures.ts';

const run = promisify(execFile);
const SCALE = '0.01'; // a few thousand fills: the test is about the order of start-up, not volume
let data: { dir: string; cleanup: () => void };

beforeAll(async () => {
  data = tempDataDir();
  // a journal simulated up to two days ago: `start` has two days to catch up
  const until = new Date(Date.now() - 2 * 86_400_000).toISOString();
  await run(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'simulate', '--data', data.dir, '--scale', SCALE, '--until', until], {
    env: { ...process.env, PERPS_LOG_LEVEL: '1' },
  });
}, 120_000);
afterAll(() => data.cleanup());

/** Runs `start` on the test's data directory until the simulator is live, then stops it; returns its log. */
async function startUntilLive(): Promise<string> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'start', '--data', data.dir, '--scale', SCALE, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PERPS_LOG_LEVEL: '3', PERPS_JOBS: 'off' },
  });
  let logs = '';
  child.stdout.on('data', (b: Buffer) => (logs += b.toString()));
  child.stderr.on('data', (b: Buffer) => (logs += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const deadline = Date.now() + 90_000;
    while (!logs.includes('simulate: live') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(logs).toContain('simulate: live');
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
  return logs;
}

const LIMIT = /DuckDB memory limit now \S+ \(serving\)/;
const BACKFILLED = /simulate: [\d,]+ new fills/;

describe('start: the memory limit of a catch-up', () => {
  it('backfills days under the bulk limit and lowers it after; a restart catches up under the serving one', async () => {
    const first = await startUntilLive();
    expect(first.search(BACKFILLED)).toBeGreaterThan(-1);
    expect(first.search(LIMIT)).toBeGreaterThan(first.search(BACKFILLED));
    // the restart: the simulator is seconds behind, so the limit is lowered before it catches up
    const second = await startUntilLive();
    expect(second.search(BACKFILLED)).toBeGreaterThan(-1);
    expect(second.search(LIMIT)).toBeGreaterThan(-1);
    expect(second.search(LIMIT)).toBeLessThan(second.search(BACKFILLED));
  }, 180_000);
});
