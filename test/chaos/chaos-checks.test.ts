/**
 * The chaos run's two independent checks of a faulted journal (server/chaos/): its fills against
 * an uninterrupted run of the same simulator, and the API against a recount from the journal.
 * On a journal simulated in two runs (a restart in between, as after a kill) both agree; a fill the
 * uninterrupted run does not have is found.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAgainstRecount } from '../../server/chaos/recount.ts';
import { compareWithUninterrupted, sameFills } from '../../server/chaos/uninterrupted.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { openService } from '../../server/service.ts';
import { openSimulator, simulateUntil } from '../../server/sources/simulate/source.ts';
import { fill, tempDataDir } from '../helpers/fixtures.ts';

const LAUNCH = Date.UTC(2025, 2, 12);
const DAY = 86_400_000;
const opts = { seed: 3, scale: 0.05 };
const { dir, cleanup } = tempDataDir();
const killed = join(dir, 'killed');
afterAll(cleanup);

/** Simulates into the killed journal up to `until`, as one run of a server that is then stopped. */
async function runTo(until: number): Promise<void> {
  const service = await openService({ dataDir: killed });
  try {
    await simulateUntil(service, openSimulator(service, opts), opts, until, { rowsPerAppend: 2_000 });
  } finally {
    await service.close();
  }
}

beforeAll(async () => {
  await runTo(LAUNCH + 2.5 * DAY);
  await runTo(LAUNCH + 5 * DAY); // resumed from the saved state
}, 120_000);

describe('chaos checks', () => {
  it('a journal built in two runs has the fills of an uninterrupted run; an extra fill is found', async () => {
    const same = await compareWithUninterrupted(killed, join(dir, 'work-1'));
    expect(same.killedFills).toBeGreaterThan(100);
    expect(same).toMatchObject({ completeTo: new Date(LAUNCH + 5 * DAY).toISOString(), onlyKilled: 0, onlyUninterrupted: 0, seqDiffers: 0 });
    expect(sameFills(same)).toBe(true);
    const service = await openService({ dataDir: killed });
    try {
      await service.append({ fills: [fill({ time: LAUNCH + DAY, market: 'SOL-PERP' })], marketSnapshots: [], positionSnapshots: [] });
    } finally {
      await service.close();
    }
    const extra = await compareWithUninterrupted(killed, join(dir, 'work-2'));
    expect(extra).toMatchObject({ killedFills: same.killedFills + 1, onlyKilled: 1, onlyUninterrupted: 0 });
    expect(sameFills(extra)).toBe(false);
  }, 120_000);

  it('the API answers equal their recount from the journal', async () => {
    const { key } = KeyStore.open(killed).create({ plan: 'premium', label: null, account: null });
    const checks = await apiAgainstRecount(killed, key);
    expect(checks.map((c) => c.what)).toHaveLength(4);
    expect(checks.filter((c) => c.differences.length)).toEqual([]);
    expect(checks[0]!.what).toMatch(/interval=1d \([1-9]\d* buckets\)/);
  }, 120_000);
});
