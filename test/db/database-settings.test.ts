import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from '../../server/db/database.ts';
import { openService } from '../../server/service.ts';
import { fill, tempDataDir } from '../helpers/fixtures.ts';

describe('DuckDB settings at run time', () => {
  it('lowers the memory limit for serving and refuses anything but a size', async () => {
    const db = await Database.open(':memory:', { memoryLimit: '2GB' });
    try {
      const limit = async () => String((await db.querySql(`SELECT current_setting('memory_limit') AS v`))[0]!.v);
      const before = await limit();
      await db.setMemoryLimit('768MB');
      const after = await limit();
      expect(after).not.toBe(before);
      expect(after).toBe('732.4 MiB'); // 768 MB
      await expect(db.setMemoryLimit("1GB'; DROP TABLE meta; --")).rejects.toThrow(/expected e\.g\. 1GB/);
      await expect(db.setMemoryLimit('lots')).rejects.toThrow(/expected e\.g\. 1GB/);
      expect(await limit()).toBe(after);
    } finally {
      await db.close();
    }
  });

  it('runs read-side builds under the bulk limit one at a time, a serving limit set meanwhile applied after them', async () => {
    const db = await Database.open(':memory:', { memoryLimit: '256MB', threads: 1 });
    try {
      const limit = async () => String((await db.querySql(`SELECT current_setting('memory_limit') AS v`))[0]!.v);
      // an ungrouped list() cannot spill: ~60 MB of strings held at once
      const big = () => db.querySql(`SELECT length(list(md5(range::VARCHAR) || md5((range + 1)::VARCHAR))) AS n FROM range(600000)`);
      await db.setMemoryLimit('16MB');
      await expect(big()).rejects.toThrow(/Out of Memory/);
      let during = '';
      const rows = await db.underBulkMemory(async () => {
        during = await limit();
        return big();
      });
      expect(rows[0]!.n).toBe(600000);
      expect(during).toBe('244.1 MiB'); // 256 MB
      expect(await limit()).toBe('15.2 MiB'); // 16 MB, back after the build
      // builds run one at a time; a serving limit set while one runs applies once the last ends
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const order: string[] = [];
      const first = db.underBulkMemory(async () => {
        order.push('first');
        await held;
        order.push('first done');
      });
      const second = db.underBulkMemory(async () => void order.push('second'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual(['first']);
      expect(await limit()).toBe('244.1 MiB');
      await db.setMemoryLimit('32MB');
      expect(await limit()).toBe('244.1 MiB');
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(['first', 'first done', 'second']);
      expect(await limit()).toBe('30.5 MiB'); // 32 MB
    } finally {
      await db.close();
    }
  });

  it('runs its close hooks once when it closes, before closing, and a hook added later at once', async () => {
    const db = await Database.open(':memory:');
    const calls: string[] = [];
    db.onClose(() => calls.push('first'));
    db.onClose(() => {
      throw new Error('a failing hook does not stop the close');
    });
    db.onClose(() => calls.push('second'));
    expect(calls).toEqual([]);
    const closed = db.close();
    expect(calls).toEqual(['first', 'second']);
    await closed;
    await db.close();
    expect(calls).toEqual(['first', 'second']);
    db.onClose(() => calls.push('late'));
    expect(calls).toEqual(['first', 'second', 'late']);
  });

  it('changes its worker threads at run time', async () => {
    const db = await Database.open(':memory:', { threads: 2 });
    try {
      const threads = async () => Number((await db.querySql(`SELECT current_setting('threads') AS v`))[0]!.v);
      expect(db.threads).toBe(2);
      expect(await threads()).toBe(2);
      await db.setThreads(1);
      expect(db.threads).toBe(1);
      expect(await threads()).toBe(1);
      await expect(db.setThreads(0)).rejects.toThrow(/positive integer/);
      expect(await threads()).toBe(1);
    } finally {
      await db.close();
    }
  });
});

describe('spill files', () => {
  it("go beside the state file, not under the working directory (the in-memory instance's default)", async () => {
    const { dir, cleanup } = tempDataDir();
    const path = join(dir, 'state.duckdb');
    const db = await Database.open(path, { memoryLimit: '64MB', threads: 1 });
    try {
      expect((await db.querySql(`SELECT current_setting('temp_directory') AS v`))[0]!.v).toBe(`${path}.tmp`);
      // a sort larger than the memory limit spills there
      await db.write((w) =>
        w.exec(`CREATE TABLE spilled AS SELECT md5(range::VARCHAR) || md5((range + 1)::VARCHAR) AS s
        FROM range(3000000) ORDER BY s`),
      );
      expect(existsSync(`${path}.tmp`)).toBe(true);
    } finally {
      await db.close();
      cleanup();
    }
  });
});

describe('queries without parameters', () => {
  it("see rows appended after their first run (DuckDB would keep an empty table's plan)", async () => {
    const { dir, cleanup } = tempDataDir();
    const service = await openService({ dataDir: dir });
    try {
      // run on an empty state (a fresh start serves while its backfill begins)
      for (let i = 0; i < 3; i++) expect(await service.db.query('api/alpha-markets')).toEqual([]);
      await service.append({ fills: [fill({ market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' })], marketSnapshots: [], positionSnapshots: [] });
      for (let i = 0; i < 3; i++) {
        expect(await service.db.query('api/alpha-markets')).toEqual([{ market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]' }]);
      }
    } finally {
      await service.close();
      cleanup();
    }
  });
});

describe('string compression', () => {
  it('stores near-unique strings without FSST, which cost inserts a fifth and saved < 1 % of the file', async () => {
    const { dir, cleanup } = tempDataDir();
    const db = await Database.open(join(dir, 'state.duckdb'), { threads: 1 });
    try {
      // tx-like strings (long, near-unique, a small alphabet): what FSST is chosen for by default
      await db.write(async (w) => {
        await w.exec(`CREATE TABLE strs AS SELECT md5(range::VARCHAR) || md5((range * 7)::VARCHAR) AS s FROM range(300000)`);
        await w.exec('CHECKPOINT');
      });
      const rows = await db.querySql(`SELECT DISTINCT compression FROM pragma_storage_info('strs') WHERE column_name = 's' AND segment_type = 'VARCHAR'`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => String(r.compression)).filter((c) => /fsst/i.test(c))).toEqual([]);
    } finally {
      await db.close();
      cleanup();
    }
  });
  it('waits for a read that pins a committed delete and update before it checkpoints, instead of failing', async () => {
    const { dir, cleanup } = tempDataDir();
    const db = await Database.open(join(dir, 'state.duckdb'));
    try {
      await db.write((w) => w.exec('CREATE TABLE t (x INTEGER); INSERT INTO t SELECT range FROM range(10000)'));
      // a read of about a second that begins before the delete commits
      const longRead = () => db.querySql('SELECT count(*) AS n FROM range(300000000) r, (SELECT max(x) AS m FROM t) WHERE r.range % 7 = m % 7');
      const deleteSome = (from: number) =>
        db.write(async (w) => {
          await w.exec('BEGIN TRANSACTION');
          await w.exec(`DELETE FROM t WHERE x < ${from + 10}; UPDATE t SET x = x + 1 WHERE x > 9990; INSERT INTO t VALUES (${from})`);
          await w.exec('COMMIT');
        });
      // what DuckDB does without the wait: the checkpoint is refused while the read runs
      let read = longRead();
      await new Promise((r) => setTimeout(r, 100));
      await deleteSome(0);
      await expect(db.write((w) => w.checkpoint(0))).rejects.toThrow(/other write transactions active/);
      await read;
      // with it (the default), the checkpoint goes through once the read has ended
      read = longRead();
      await new Promise((r) => setTimeout(r, 100));
      await deleteSome(100);
      await db.checkpoint();
      await read;
    } finally {
      await db.close();
      cleanup();
    }
  });
});
