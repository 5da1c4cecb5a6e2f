/**
 * Bulk commands (`rebuild`, `simulate`) run with DuckDB's allocator keeping freed pages
 * (server/db/bulk-allocator.ts); other processes keep DuckDB's defaults. jemalloc reads its options
 * once, when DuckDB's library loads, so the setting must come before: these tests run the real CLI
 * and small scripts in child processes.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BULK_FLUSH_THRESHOLD, BULK_JEMALLOC_CONF, duckdbLoaded } from '../../server/db/bulk-allocator.ts';
import { tempDataDir } from '../helpers/fixtures.ts';

const run = promisify(execFile);
const { dir, cleanup } = tempDataDir();
afterAll(cleanup);

/** Runs node on `args` (tsx loaded) at debug level, without a DUCKDB_JE_MALLOC_CONF of its own; returns stdout + stderr. */
async function node(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { DUCKDB_JE_MALLOC_CONF: _, ...rest } = process.env;
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', ...args], { env: { ...rest, PERPS_LOG_LEVEL: '4', ...env } });
  return stdout + stderr;
}

/** A module body printing, once DuckDB is open, what jemalloc and DuckDB were given. */
const PROBE = `
  const { Database } = await import('./server/db/database.ts');
  const db = await Database.open(':memory:');
  const [row] = await db.querySql("SELECT current_setting('allocator_flush_threshold') AS t");
  console.log('PROBE', JSON.stringify({ conf: process.env.DUCKDB_JE_MALLOC_CONF ?? null, flush: row.t }));
  await db.close();
`;

function probed(out: string): { conf: string | null; flush: string } {
  const line = out.split('\n').find((l) => l.startsWith('PROBE '));
  if (!line) throw new Error(`no probe line in:\n${out}`);
  return JSON.parse(line.slice(6));
}

describe('bulk allocator', () => {
  it('is set by rebuild before DuckDB loads, and not in a process that does not ask for it', async () => {
    const out = await node(['server/main/cli.ts', 'rebuild', '--data', dir]);
    expect(out).toContain(`allocator: bulk (DUCKDB_JE_MALLOC_CONF=${BULK_JEMALLOC_CONF}, flush thresholds ${BULK_FLUSH_THRESHOLD})`);
    expect(out).not.toContain('bulk allocator settings came after DuckDB loaded');
    const plain = probed(await node(['--input-type=module', '-e', PROBE]));
    expect(plain).toEqual({ conf: null, flush: '128.0 MiB' }); // DuckDB's default
  }, 60_000);

  it('sets the DuckDB thresholds and jemalloc options in a bulk process; a user setting wins', async () => {
    const bulk = probed(await node(['--input-type=module', '-e', `await import('./server/bench/bulk-process.ts');${PROBE}`]));
    expect(bulk.conf).toBe(BULK_JEMALLOC_CONF);
    expect(bulk.flush).toBe('3.7 GiB'); // BULK_FLUSH_THRESHOLD (4GB = 4·10^9 bytes) as DuckDB prints it
    const own = probed(await node(['--input-type=module', '-e', `await import('./server/bench/bulk-process.ts');${PROBE}`], { DUCKDB_JE_MALLOC_CONF: 'dirty_decay_ms:0' }));
    expect(own.conf).toBe('dirty_decay_ms:0');
  }, 60_000);

  it('warns when it comes after DuckDB loaded', async () => {
    expect(duckdbLoaded()).toBe(true); // this test process has (fixtures): the detection sees it
    const out = await node(['--input-type=module', '-e', `await import('@duckdb/node-api'); const m = await import('./server/db/bulk-allocator.ts'); console.log('SEEN', m.useBulkAllocator());`]);
    expect(out).toContain('SEEN false');
    expect(out).toContain('bulk allocator settings came after DuckDB loaded');
  }, 60_000);
});
