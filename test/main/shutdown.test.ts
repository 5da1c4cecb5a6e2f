import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_SOURCE } from '../../server/sources/replay/source.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { openService } from '../../server/service.ts';
import { tempDataDir } from '../helpers/fixtures.ts';

const run = promisify(execFile);
const NOW = Date.UTC(2026, 4, 2);
let source: { dir: string; cleanup: () => void };
let target: { dir: string; cleanup: () => void };
let total = 0;

beforeAll(async () => {
  source = tempDataDir();
  target = tempDataDir();
  const service = await openService({ dataDir: source.dir, clock: () => NOW });
  const sim = new Simulator({ seed: 5, start: Date.UTC(2026, 4, 1), snapshotsFrom: Date.UTC(2026, 4, 1) });
  for (const b of sim.advance(Date.UTC(2026, 4, 1, 12))) await service.append(b);
  total = service.lastSeq();
  await service.close();
});
afterAll(() => {
  source.cleanup();
  target.cleanup();
});

/** Starts the server as a child process replaying the source journal (12 h of it in ~8 s). */
function startServer(port: number) {
  const speed = String((12 * 3_600_000) / 8000);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main/cli.ts', 'start', '--source', 'replay', '--from', source.dir, '--speed', speed, '--data', target.dir, '--port', String(port)],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      // jobs every second, so that one is likely running when the signal comes
      env: { ...process.env, PERPS_LOG_LEVEL: '4', PERPS_JOB_ROLLUP_REFRESH: '* * * * * *', PERPS_JOB_POSITION_REFRESH: '*/2 * * * * *' },
    },
  );
  let logs = '';
  child.stdout.on('data', (b: Buffer) => (logs += b.toString()));
  child.stderr.on('data', (b: Buffer) => (logs += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = async (text: string, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!logs.includes(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!logs.includes(text)) throw new Error(`no "${text}" in the child's log:\n${logs}`);
  };
  return { child, exited, waitFor, logs: () => logs };
}

/** Waits until the journal's checkpoint records at least one committed fill. */
async function waitForCommittedFills(dataDir: string, ms = 30_000) {
  const file = join(dataDir, 'journal', 'checkpoint.json');
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { lastSeq: number }).lastSeq > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no fill committed in ${dataDir} within ${ms} ms`);
}

describe('shutdown', () => {
  it('SIGTERM stops source, server, jobs and database in order and exits 0; a restart continues from the checkpoint', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const first = startServer(port);
    try {
      await first.waitFor('serving');
      await first.waitFor('job position-refresh: done'); // jobs are running, and so is the replay
      // on a loaded CI machine the first replay commit can come after the first job run: wait for it
      await waitForCommittedFills(target.dir);
      expect(first.logs()).not.toContain('replay: done');
      expect((await fetch(`http://127.0.0.1:${port}/v1/openapi.json`)).status).toBe(200);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
    } finally {
      first.child.kill('SIGKILL');
    }
    const log1 = first.logs();
    const order = ['SIGTERM: stopping', 'shutdown: source stopped', 'shutdown: http stopped', 'shutdown: jobs stopped', 'shutdown: limits stopped', 'shutdown: database stopped', 'SIGTERM: stopped'];
    const at = order.map((s) => log1.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      log1,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);

    // stopped part-way: what is in the journal is exactly what the checkpoint says
    const mid = await openService({ dataDir: target.dir, clock: () => NOW });
    const cursor = (mid.sourceCheckpoint(REPLAY_SOURCE) as { cursor: number }).cursor;
    const [m] = await mid.db.querySql('SELECT count(*) AS n, epoch_ms(max(time)) AS last FROM fills');
    await mid.close();
    expect(m!.n).toBeGreaterThan(0);
    expect(m!.n).toBeLessThan(total);
    expect(m!.last as number).toBeLessThan(cursor);

    const second = startServer(port);
    try {
      await second.waitFor('replay: done');
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
    } finally {
      second.child.kill('SIGKILL');
    }
    expect(second.logs()).toContain(`replay: ${join(source.dir, 'journal')} from ${new Date(cursor).toISOString()}`);
    // with the server stopped, a job can be run from the CLI
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'jobs', 'run', 'rollup-refresh', '--data', target.dir], {
      env: { ...process.env, PERPS_LOG_LEVEL: '3' },
    });
    expect(stdout).toMatch(/job rollup-refresh: \{"fillBuckets":\d+,"snapshotBuckets":\d+,"seq":\d+/);
    const end = await openService({ dataDir: target.dir, clock: () => NOW });
    try {
      const [f] = await end.db.querySql('SELECT count(*) AS n, count(DISTINCT (protocol, tx, event_index)) AS keys, min(seq) AS lo, max(seq) AS hi FROM fills');
      expect(f).toEqual({ n: total, keys: total, lo: 1, hi: total });
    } finally {
      await end.close();
    }
  }, 120_000);
});
