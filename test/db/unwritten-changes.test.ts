import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unwrittenBytes, unwrittenLimitFrom } from '../../server/db/unwritten-changes.ts';
import { openService } from '../../server/service.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { simulateUntil } from '../../server/sources/simulate/source.ts';
import { tempDataDir } from '../helpers/fixtures.ts';

/**
 * A backfill keeps the derived state's unwritten changes (it has no WAL: they are in memory until
 * a checkpoint) under PERPS_CHECKPOINT_UNWRITTEN by checkpointing between appends; without it they
 * pile up for the whole backfill (to ~1.4 GB over the demo's).
 */
const START = Date.UTC(2026, 3, 1);
const { dir, cleanup } = tempDataDir();
afterAll(cleanup);

/** Backfills four days (with market and position snapshots) under `limit`; the unwritten bytes after it. */
async function backfill(name: string, limit: string): Promise<number> {
  const before = process.env.PERPS_CHECKPOINT_UNWRITTEN;
  process.env.PERPS_CHECKPOINT_UNWRITTEN = limit;
  const service = await openService({ dataDir: join(dir, name) });
  try {
    const sim = new Simulator({ seed: 5, start: START, snapshotsFrom: START });
    await simulateUntil(service, sim, { seed: 5, scale: 1 }, START + 4 * 86_400_000, { rowsPerAppend: 5_000 });
    return await unwrittenBytes(service.db);
  } finally {
    await service.close();
    if (before === undefined) delete process.env.PERPS_CHECKPOINT_UNWRITTEN;
    else process.env.PERPS_CHECKPOINT_UNWRITTEN = before;
  }
}

describe('unwritten changes during a backfill', () => {
  it('are checkpointed once past the limit, and pile up without one', async () => {
    const unbounded = await backfill('unbounded', '1000GB');
    const bounded = await backfill('bounded', '4MB');
    // ~61 MB against ~18 MB: the limit, plus what one append of 5,000 rows adds to every derived
    // table (fills_by_address and price_5m included) and the staging tables' own blocks
    expect(bounded).toBeLessThan(20e6);
    expect(unbounded).toBeGreaterThan(2.5 * bounded);
  }, 120_000);

  it('the limit is a size; anything else is refused naming the variable', () => {
    expect(unwrittenLimitFrom({})).toBe(512e6);
    expect(unwrittenLimitFrom({ PERPS_CHECKPOINT_UNWRITTEN: '1GiB' })).toBe(2 ** 30);
    expect(() => unwrittenLimitFrom({ PERPS_CHECKPOINT_UNWRITTEN: 'lots' })).toThrow('PERPS_CHECKPOINT_UNWRITTEN "lots"');
  });
});
