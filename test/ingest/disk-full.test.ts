/**
 * A full disk, injected where the journal writes (the file system calls of server/lib/fs-atomic.ts fail
 * with ENOSPC): an append that cannot be written fails whole (no file a reader can see, the
 * checkpoint not advanced, the temp commit tree removed), a source pauses and retries it with
 * backoff while `/health` says failing with the reason and reads are served, and once space is
 * back the batch lands once, nothing lost or doubled.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rebuildState } from '../../server/derive/rebuild.ts';
import { appendRetrying } from '../../server/ingest/append-retry.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { statePath } from '../../server/service.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { at, fill, positionSnapshot } from '../helpers/fixtures.ts';
import { diffStates } from '../helpers/state-diff.ts';

/** Where the next journal write fails with ENOSPC (null: the disk has room). */
const disk = vi.hoisted(() => ({ fullAt: null as null | 'parquet-fsync' | 'checkpoint' | 'intent' }));

vi.mock('../../server/lib/fs-atomic.ts', async (importOriginal) => {
  const fs = await importOriginal<typeof import('../../server/lib/fs-atomic.ts')>();
  const enospc = (path: string) => Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28 });
  return {
    ...fs,
    fsyncPathAsync: async (path: string) => {
      if (disk.fullAt === 'parquet-fsync' && path.endsWith('.parquet')) throw enospc(path);
      return fs.fsyncPathAsync(path);
    },
    writeTempFileAsync: async (path: string, text: string | Uint8Array, mode?: number) => {
      if (disk.fullAt === 'checkpoint' && path.endsWith('checkpoint.json')) throw enospc(path);
      return fs.writeTempFileAsync(path, text, mode);
    },
    writeFileAtomicAsync: async (path: string, text: string | Uint8Array, mode?: number) => {
      if (disk.fullAt === 'intent' && path.endsWith('.intent.json')) throw enospc(path);
      return fs.writeFileAtomicAsync(path, text, mode);
    },
  };
});

const NOW = at('2026-06-03T00:00:00Z');
let t: TestApp | undefined;
afterEach(async () => {
  disk.fullAt = null;
  await t?.close();
  t = undefined;
});

let n = 0;
/** A batch of two opens with their event snapshots on `day`. */
function batch(day: string): IncomingBatch {
  n++;
  const time = at(`${day}T10:00:00Z`);
  return {
    fills: [fill({ time, tx: `DF${n}A`, position_key: `K${n}A` }), fill({ time, tx: `DF${n}B`, position_key: `K${n}B`, side: 'short' })],
    marketSnapshots: [],
    positionSnapshots: [positionSnapshot({ time, position_key: `K${n}A` }), positionSnapshot({ time, position_key: `K${n}B` })],
    checkpoint: { n },
  };
}

/** Every entry under the journal directory, as relative paths. */
const journalEntries = (dir: string) => readdirSync(join(dir, 'journal'), { recursive: true }).map(String).sort();

describe('a full disk', () => {
  for (const stage of ['parquet-fsync', 'checkpoint', 'intent'] as const) {
    it(`fails an append whole when the ${stage} write hits ENOSPC, and the same batch lands once when space is back`, async () => {
      t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
      const { service, dir } = t;
      const before = journalEntries(dir).filter((e) => !e.includes('.tmp-'));
      const checkpoint = readFileSync(join(dir, 'journal/checkpoint.json'), 'utf8');

      disk.fullAt = stage;
      const b = batch('2026-06-02');
      await expect(service.append(b)).rejects.toThrow(/ENOSPC/);
      await new Promise((r) => setTimeout(r, 50)); // a background removal would have run by now
      const after = journalEntries(dir);
      expect(after.filter((e) => e.includes('.tmp-') || e.endsWith('.intent.json'))).toEqual([]);
      expect(after.filter((e) => e.endsWith('.parquet'))).toEqual(before.filter((e) => e.endsWith('.parquet')));
      expect(readFileSync(join(dir, 'journal/checkpoint.json'), 'utf8')).toBe(checkpoint);
      expect(service.lastSeq()).toBe(2);
      expect(service.appendState().failure).toBeUndefined();
      const [derived] = await service.db.querySql('SELECT count(*)::INTEGER AS n FROM fills');
      expect(derived!.n).toBe(2);

      disk.fullAt = null;
      const r = await service.append(b);
      expect(r.fills.map((f) => f.seq)).toEqual([3, 4]);
      const [j] = await service.db.querySql(
        `SELECT count(*)::INTEGER AS n, count(DISTINCT seq)::INTEGER AS seqs, max(seq)::INTEGER AS hi
         FROM read_parquet('${join(dir, 'journal/fills/**/*.parquet')}', hive_partitioning = true)`,
      );
      expect(j).toEqual({ n: 4, seqs: 4, hi: 4 });
      const [p] = await service.db.querySql(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(dir, 'journal/position_snapshots/**/*.parquet')}', hive_partitioning = true)`);
      expect(p!.n).toBe(4);
      await service.db.checkpoint();
      await rebuildState(dir, join(dir, 'rebuilt.duckdb'));
      const diff = await diffStates(statePath(dir), join(dir, 'rebuilt.duckdb'));
      for (const [table, d] of Object.entries(diff)) expect({ table, onlyA: d.onlyA, onlyB: d.onlyB }).toEqual({ table, onlyA: 0, onlyB: 0 });
    });
  }

  it('pauses the source, which retries with backoff; /health fails with the reason while reads are served; then it resumes', async () => {
    t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
    const { service, dir } = t;
    service.source.setSource('simulated');
    service.source.set('live');
    disk.fullAt = 'parquet-fsync';
    const pending = appendRetrying(service, batch('2026-06-02'), {}, { firstMs: 20, maxMs: 40 });
    await vi.waitFor(() => expect(service.source.get().phase).toBe('retrying'), { timeout: 5000, interval: 10 });

    const health = await t.get('/health', null);
    expect(health.status).toBe(503);
    const body = await health.json();
    expect(body.status).toBe('failing');
    expect(body.problems).toEqual(['source retrying: append failed: no space left on device']);
    expect(body.source).toMatchObject({ kind: 'simulated', phase: 'retrying', reason: 'append failed: no space left on device' });
    // reads go on
    const read = await t.get('/v1/alpha/markets');
    expect(read.status).toBe(200);
    // several attempts, each leaving nothing behind
    await new Promise((r) => setTimeout(r, 150));
    expect(journalEntries(dir).filter((e) => e.includes('.tmp-'))).toEqual([]);

    disk.fullAt = null;
    const r = await pending;
    expect(r?.fills).toHaveLength(2);
    expect(service.source.get()).toMatchObject({ phase: 'live', reason: null });
    const ok = await (await t.get('/health', null)).json();
    expect(ok.status).toBe('ok');
    const [j] = await service.db.querySql(
      `SELECT count(*)::INTEGER AS n, count(DISTINCT seq)::INTEGER AS seqs FROM read_parquet('${join(dir, 'journal/fills/**/*.parquet')}', hive_partitioning = true)`,
    );
    expect(j).toEqual({ n: 4, seqs: 4 });
    expect(existsSync(join(dir, 'journal/checkpoint.json'))).toBe(true);
  });
});
