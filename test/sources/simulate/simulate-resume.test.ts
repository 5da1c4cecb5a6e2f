import { afterAll, describe, expect, it } from 'vitest';
import { openService } from '../../../server/service.ts';
import { checkpointOf, openSimulator, saveSimulatorState, SIMULATE_SOURCE, simulateUntil } from '../../../server/sources/simulate/source.ts';
import { mergeBatches } from '../../../server/sources/simulate/source.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';

const { dir, cleanup } = tempDataDir();
afterAll(cleanup);
const OPTS = { seed: 11, scale: 1 };
const DAY = 86_400_000;
const START = Date.UTC(2025, 2, 12);

describe('simulate source resume', () => {
  it('replays the switch to live mode after a restart from a state saved before it: nothing new, nothing doubled', async () => {
    // first run: backfill 3 days (state saved at its end), go live, append 2 live hours
    let service = await openService({ dataDir: dir });
    const sim = openSimulator(service, OPTS);
    await simulateUntil(service, sim, OPTS, START + 3 * DAY);
    saveSimulatorState(dir, sim, OPTS); // as `start` does after the backfill
    sim.goLive(60);
    const live = mergeBatches(sim.advance(START + 3 * DAY + 2 * 3_600_000));
    const first = await service.append({ ...live, checkpoint: checkpointOf(sim, OPTS) }, { source: SIMULATE_SOURCE });
    expect(first.fills.length).toBeGreaterThan(100);
    const seq = service.lastSeq();
    await service.close();

    // restart with only the pre-live state on disk: the same live timeline must come out again
    service = await openService({ dataDir: dir });
    const again = openSimulator(service, OPTS);
    expect(again.options.liveFrom).toBe(START + 3 * DAY);
    const replay = mergeBatches(again.advance(START + 3 * DAY + 2 * 3_600_000));
    const second = await service.append({ ...replay, checkpoint: checkpointOf(again, OPTS) }, { source: SIMULATE_SOURCE });
    expect(second.fills.length).toBe(0);
    expect(second.duplicates).toBe(first.fills.length);
    expect(service.lastSeq()).toBe(seq);
    await service.close();
  }, 60_000);
});
