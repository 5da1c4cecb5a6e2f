import { describe, expect, it } from 'vitest';
import { openService } from '../../server/service.ts';
import { at, fill, positionSnapshot, tempDataDir } from '../helpers/fixtures.ts';

// A position snapshot joins the lifecycle of its key's latest fill in the batch, else the key's
// open lifecycle in memory, else the key's latest lifecycle in the derived state: after a restart
// the index holds only open lifecycles, so a re-sent snapshot of a position closed since (what a
// restarted live simulator sends by the thousand) is resolved by one query for the whole batch.
describe('position snapshots of keys not in memory', () => {
  it('join the latest lifecycle of their key in the derived state, one query for the batch; unknown keys are dropped', async () => {
    const { dir, cleanup } = tempDataDir();
    const t = at('2026-06-01T00:00:00Z');
    const clock = () => at('2026-06-02T00:00:00Z');
    let service = await openService({ dataDir: dir, clock });
    try {
      const close = { type: 'close' as const, size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -100, position_collateral_usd: 0 };
      await service.append({
        fills: [
          // POSA: two lifecycles (1, then 3), both closed; POSB: lifecycle 2, open
          fill({ time: t, position_key: 'POSA' }),
          fill({ time: t + 1000, position_key: 'POSB', address: 'Addr2222222222222222222222222222222222222222' }),
          fill({ time: t + 2000, position_key: 'POSA', ...close }),
          fill({ time: t + 3000, position_key: 'POSA' }),
          fill({ time: t + 4000, position_key: 'POSA', ...close }),
        ],
        marketSnapshots: [],
        positionSnapshots: [],
      });
      await service.close();
      service = await openService({ dataDir: dir, clock });
      const queries: string[] = [];
      const write = service.db.write.bind(service.db);
      service.db.write = (fn) =>
        write((w) => {
          const run = w.run.bind(w);
          w.run = (name, params) => (queries.push(name), run(name, params));
          return fn(w);
        });
      await service.append({
        fills: [],
        marketSnapshots: [],
        positionSnapshots: [
          positionSnapshot({ time: t + 5000, position_key: 'POSA', size_usd: 0, collateral_usd: 0 }),
          positionSnapshot({ time: t + 6000, position_key: 'POSB', size_usd: 1000 }),
          positionSnapshot({ time: t + 7000, position_key: 'POSA', size_usd: 0, collateral_usd: 0 }),
          positionSnapshot({ time: t + 8000, position_key: 'NEVER-SEEN', size_usd: 1 }),
        ],
      });
      expect(queries.filter((q) => q === 'ingest/last-lifecycles')).toHaveLength(1);
      const latest = await service.db.querySql('SELECT position_id, epoch_ms(time) AS time FROM position_latest ORDER BY position_id');
      expect(latest).toEqual([
        { position_id: 2, time: t + 6000 },
        { position_id: 3, time: t + 7000 },
      ]);
    } finally {
      await service.close();
      cleanup();
    }
  });
});
