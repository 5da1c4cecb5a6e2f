/**
 * The append path commits a batch's journal files on one connection while the writer derives
 * from the same staged rows (server/ingest/append.ts). Whichever side fails, the journal and the
 * derived state must stay consistent: nothing derived that the journal lacks, nothing journaled
 * that the derived state misses.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Writer } from '../../server/db/writer.ts';
import { partitionDir } from '../../server/journal/layout.ts';
import { at, fill, marketSnapshot, positionSnapshot, tempService } from '../helpers/fixtures.ts';
import { diffWithRebuild } from '../helpers/rebuild-diff.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const batch = (day: string) => ({
  fills: [fill({ time: at(`${day}T10:00:00Z`), position_key: 'P1' }), fill({ time: at(`${day}T10:05:00Z`), position_key: 'P2', side: 'short' })],
  marketSnapshots: [marketSnapshot({ time: at(`${day}T10:00:00Z`) })],
  positionSnapshots: [positionSnapshot({ time: at(`${day}T10:00:00Z`), position_key: 'P1' })],
});

async function derivedSeq(service: Awaited<ReturnType<typeof tempService>>['service']): Promise<number> {
  const [row] = await service.db.querySql(`SELECT value FROM meta WHERE key = 'derived_seq'`);
  return Number(row?.value ?? 0);
}

describe('append path failures', () => {
  it('a failed journal commit rolls the concurrent derive back; the next append reuses the seqs', async () => {
    const t = await tempService();
    cleanup = t.cleanup;
    const { service } = t;
    await service.append(batch('2026-05-30'));
    expect(await derivedSeq(service)).toBe(2);

    // a file where the day's fill partition directory must go: the commit fails after its COPY
    const blocker = partitionDir(service.dataDir, 'fills', 'alpha', '2026-05-31');
    mkdirSync(dirname(blocker), { recursive: true });
    writeFileSync(blocker, 'not a directory');
    await expect(service.append(batch('2026-05-31'))).rejects.toThrow();
    expect(service.lastSeq()).toBe(2);
    expect(await derivedSeq(service)).toBe(2);
    const [count] = await service.db.querySql('SELECT count(*) AS n FROM fills');
    expect(Number(count!.n)).toBe(2);

    rmSync(blocker);
    const again = await service.append(batch('2026-05-31'));
    expect(again.fills.map((f) => f.seq)).toEqual([3, 4]);
    expect(await derivedSeq(service)).toBe(4);
    expect(await diffWithRebuild(service)).toEqual({});
  });

  it('a failed derive step after a durable journal commit catches up from the files', async () => {
    const t = await tempService();
    cleanup = t.cleanup;
    const { service } = t;
    await service.append(batch('2026-05-30'));
    const run = Writer.prototype.run;
    let failed = 0;
    Writer.prototype.run = async function (name, params) {
      if (name === 'derive/accounts-insert' && failed++ === 0) throw new Error('injected derive failure');
      return run.call(this, name, params);
    };
    try {
      const r = await service.append(batch('2026-05-31'));
      expect(r.fills.map((f) => f.seq)).toEqual([3, 4]);
    } finally {
      Writer.prototype.run = run;
    }
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(await derivedSeq(service)).toBe(4);
    expect(await diffWithRebuild(service)).toEqual({});
    await service.append(batch('2026-06-01'));
    expect(await diffWithRebuild(service)).toEqual({});
  });
});
