import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rebuildState } from '../../server/derive/rebuild.ts';
import { openService, statePath } from '../../server/service.ts';
import { tempDataDir } from '../helpers/fixtures.ts';
import { diffStates } from '../helpers/state-diff.ts';

const TOTAL = 600;
const { dir, cleanup } = tempDataDir();
afterAll(cleanup);

/** Runs the append loop in a child process; kills it with SIGKILL after `killAfterMs` if given. */
function runLoop(killAfterMs?: number): Promise<{ killed: boolean; progress: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/append-loop.ts', dir, String(TOTAL)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let progress = 0;
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (b: Buffer) => {
      progress = Number(b.toString().trim().split('\n').pop());
      // start the kill clock once the child is really appending (start-up time varies)
      if (killAfterMs !== undefined && !timer) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(timer);
      resolve({ killed: signal === 'SIGKILL', progress });
    });
  });
}

describe('journal durability under kill -9', () => {
  it('loses nothing and doubles nothing across repeated kills mid-append', async () => {
    let kills = 0;
    for (const ms of [40, 150, 5, 300, 90]) {
      const r = await runLoop(ms);
      if (r.killed) kills++;
    }
    expect(kills).toBeGreaterThan(0);
    const done = await runLoop();
    expect(done.killed).toBe(false);

    const s = await openService({ dataDir: dir });
    try {
      const [f] = await s.db.querySql(
        `SELECT count(*) AS n, count(DISTINCT tx) AS txs, min(seq) AS lo, max(seq) AS hi,
                count(*) FILTER (tx <> 'loop-' || (seq - 1)) AS misordered FROM fills`,
      );
      expect(f).toEqual({ n: TOTAL, txs: TOTAL, lo: 1, hi: TOTAL, misordered: 0 });
      const [l] = await s.db.querySql(`SELECT count(*) AS n, count(*) FILTER (status = 'closed') AS closed FROM lifecycles`);
      expect(l).toEqual({ n: TOTAL / 2, closed: TOTAL / 2 });
    } finally {
      await s.close();
    }
    // the journal on disk: no temp files, no intents left; seq ranges of files tile 1..TOTAL
    const files = readdirSync(join(dir, 'journal'), { recursive: true }).map(String);
    expect(files.filter((f) => f.includes('.tmp-') || f.endsWith('.intent.json'))).toEqual([]);
    const ranges = files.filter((f) => f.endsWith('.parquet')).map((f) => f.split('/').pop()!.replace('.parquet', '').split('-').map(Number) as [number, number]);
    ranges.sort((a, b) => a[0] - b[0]);
    ranges.forEach(([lo], i) => expect(lo).toBe(i === 0 ? 1 : ranges[i - 1]![1] + 1));
    expect(ranges.at(-1)![1]).toBe(TOTAL);

    // and the incrementally maintained state equals a rebuild from the journal alone
    await rebuildState(dir, join(dir, 'rebuilt.duckdb'));
    const diff = await diffStates(statePath(dir), join(dir, 'rebuilt.duckdb'));
    for (const [table, d] of Object.entries(diff)) expect({ table, ...d }).toEqual({ table, rows: d.otherRows, otherRows: d.otherRows, onlyA: 0, onlyB: 0 });
  }, 120_000);
});
