import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildState } from '../../server/derive/rebuild.ts';
import { statePath } from '../../server/service.ts';
import { at, fill, marketSnapshot, positionSnapshot, tempService } from '../helpers/fixtures.ts';
import { diffStates } from '../helpers/state-diff.ts';

// Two fills of one transaction each leave a position snapshot at the same instant (and a source
// may repeat a market's snapshot at one instant). DuckDB's partitioned COPY may reorder rows inside
// a journal file, so the append path keeps only the last of them per commit; (time, commit) then
// orders every kept snapshot, live and on rebuild.
describe('same-instant snapshots', () => {
  let done: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await done?.();
    done = undefined;
  });

  it('keeps the last of a batch, lets a later commit win at the same instant, and rebuilds to the same state', async () => {
    const { service, dir, cleanup } = await tempService();
    done = cleanup;
    const t = at('2026-06-01T00:00:00Z');
    await service.append({
      fills: [fill({ time: t, tx: 'TIE1', event_index: 0 }), fill({ time: t, tx: 'TIE1', event_index: 1, type: 'increase', size_delta_usd: 1000, position_size_usd: 2000, collateral_delta_usd: 0 })],
      marketSnapshots: [],
      positionSnapshots: [positionSnapshot({ time: t, size_usd: 1000 }), positionSnapshot({ time: t, size_usd: 2000 })],
    });
    const journal = async () =>
      service.db.querySql(`SELECT time, size_usd::DOUBLE AS size FROM read_parquet('${join(dir, 'journal/position_snapshots/**/*.parquet')}', hive_partitioning = true) ORDER BY ALL`);
    expect((await journal()).map((r) => r.size)).toEqual([2000]);
    const latest = async () => (await service.db.querySql('SELECT size_usd::DOUBLE AS size FROM position_latest'))[0]?.size;
    expect(await latest()).toBe(2000);

    // the same instant again in a later commit, written with a new fill: that one is the newer state
    await service.append({
      fills: [fill({ time: t, tx: 'TIE2', type: 'decrease', size_delta_usd: -500, position_size_usd: 1500, collateral_delta_usd: 0 })],
      marketSnapshots: [],
      positionSnapshots: [positionSnapshot({ time: t, size_usd: 1500 })],
    });
    expect(await latest()).toBe(1500);
    // a snapshot at that instant without a new fill is one the journal already holds: dropped
    await service.append({ fills: [], marketSnapshots: [], positionSnapshots: [positionSnapshot({ time: t, size_usd: 1500 })] });
    expect((await journal()).map((r) => r.size)).toEqual([1500, 2000]);

    await service.db.checkpoint(); // diffStates reads the file: no WAL, so what a checkpoint wrote
    await rebuildState(dir, join(dir, 'rebuilt.duckdb'));
    const diff = await diffStates(statePath(dir), join(dir, 'rebuilt.duckdb'));
    for (const [table, d] of Object.entries(diff)) expect({ table, onlyA: d.onlyA, onlyB: d.onlyB }).toEqual({ table, onlyA: 0, onlyB: 0 });
  });

  it('keeps the last market snapshot of a batch per market and instant, in the journal and market_latest, and rebuilds to the same state', async () => {
    const { service, dir, cleanup } = await tempService();
    done = cleanup;
    const t = at('2026-06-01T00:00:00Z');
    const next = t + 60_000;
    const latest = async () => (await service.db.querySql('SELECT index_price FROM market_latest'))[0]?.index_price;
    const snapshots = (...s: [number, number][]) => service.append({ fills: [], marketSnapshots: s.map(([time, index_price]) => marketSnapshot({ time, index_price })), positionSnapshots: [] });
    const journal = async () =>
      (await service.db.querySql(`SELECT index_price FROM read_parquet('${join(dir, 'journal/market_snapshots/**/*.parquet')}', hive_partitioning = true) ORDER BY time, index_price`)).map(
        (r) => r.index_price,
      );
    await snapshots([t, 99], [next, 100], [next, 101]); // a tie in one batch: journal order
    expect(await latest()).toBe(101);
    expect(await journal()).toEqual([99, 101]);
    // out of time order, with a tie: the check cannot tell, so the collapse statement decides
    await snapshots([next + 120_000, 104], [next + 60_000, 102], [next + 60_000, 103]);
    expect(await journal()).toEqual([99, 101, 103, 104]);
    expect(await latest()).toBe(104);
    // not newer than the kept latest: dropped as a resuming source's re-emitted minutes
    await snapshots([next + 120_000, 105], [t, 98]);
    expect(await latest()).toBe(104);
    await snapshots([next + 180_000, 106]);
    expect(await latest()).toBe(106);

    await service.db.checkpoint(); // diffStates reads the file: no WAL, so what a checkpoint wrote
    await rebuildState(dir, join(dir, 'rebuilt.duckdb'));
    const diff = await diffStates(statePath(dir), join(dir, 'rebuilt.duckdb'));
    for (const [table, d] of Object.entries(diff)) expect({ table, onlyA: d.onlyA, onlyB: d.onlyB }).toEqual({ table, onlyA: 0, onlyB: 0 });
  });
});
