/**
 * The lifecycle store's build and the history read index's rebuild run under the bulk memory limit
 * (Database.underBulkMemory), not the serving one: with a serving limit too small for the store's
 * queries, the store of each protocol is built all the same,
 * answers from its files, and the serving limit holds again once the build is done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HistoryIndex } from '../../../server/read/lifecycles/history-index.ts';
import { LifecycleStore } from '../../../server/read/lifecycles/lifecycle-store.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';

const START = Date.UTC(2026, 3, 20);
const FIRST = Date.UTC(2026, 3, 26);
const NOW = Date.UTC(2026, 4, 2);
/** too small for the store's queries over this journal (each refused with DuckDB's "Out of Memory") */
const SERVING = '8MB';

let t: TestApp;

beforeAll(async () => {
  const sim = new Simulator({ seed: 11, start: START, snapshotsFrom: FIRST });
  t = await openTestApp({ now: NOW, batches: sim.advance(FIRST) });
}, 60_000);
afterAll(() => t.close());

const limit = async (): Promise<string> => String((await t.service.db.querySql(`SELECT current_setting('memory_limit') AS v`))[0]!.v);

describe('the lifecycle store under a small serving memory limit', () => {
  it('is built under the bulk limit for both protocols, and the serving limit holds again after', async () => {
    await t.service.db.checkpoint(); // the appended state written, so a small limit can be set
    await t.service.db.setMemoryLimit(SERVING);
    const serving = await limit();
    // the store's own query at the serving limit: what a build under it would run into
    await expect(t.service.db.query('read/lifecycles/store/lifecycle-docs', { protocol: 'alpha', after: 0, mark: t.service.lastSeq(), from_id: 0, to_id: Number.MAX_SAFE_INTEGER })).rejects.toThrow(
      /Out of Memory/,
    );
    const history = new HistoryIndex(t.service, { rebuildAfter: Infinity });
    await history.rebuild(); // the history read index's rebuild: a heavy read-side build as well
    for (const protocol of ['alpha', 'beta'] as const) {
      const store = new LifecycleStore(t.service, protocol);
      await store.follow(history);
      const view = store.view();
      expect(view.mark).toBe(t.service.lastSeq());
      const [closed] = await t.service.db.querySql(`SELECT address, position_id FROM lifecycles WHERE protocol = $p AND status <> 'open' ORDER BY position_id LIMIT 1`, { p: protocol });
      expect(closed).toBeDefined();
      expect((await view.closed(Number(closed!.position_id)))?.record.address).toBe(closed!.address);
      await store.close();
    }
    expect(await limit()).toBe(serving);
  });
});
