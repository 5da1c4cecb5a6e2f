/**
 * Simulation bench (`npm run bench:simulation`): runs the default simulator (seed 42, scale 1, or
 * `--seed` / `--scale`) from alpha's launch to now in this thread, packing each day into column
 * blocks as the backfill's worker does, and appends nothing. It prints the rows made and the
 * wall and CPU seconds: the part of a `simulate` backfill that is the simulation itself (the rest
 * is the append path; see docs/performance.md, "Write path").
 */
import { parseArgs } from 'node:util';
import { packBatches } from '../ingest/column-groups.ts';
import { Simulator } from '../sources/simulate/simulator.ts';

const { values: args } = parseArgs({ options: { seed: { type: 'string', default: '42' }, scale: { type: 'string', default: '1' } } });
const sim = new Simulator({ seed: Number(args.seed), scale: Number(args.scale) });
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const rows = { fills: 0, marketSnapshots: 0, positionSnapshots: 0 };
for (const day of sim.batches(Date.now(), true)) {
  rows.fills += day.fills.length;
  rows.marketSnapshots += day.marketSnapshotColumns?.length ?? 0;
  rows.positionSnapshots += day.positionSnapshots.length;
  packBatches([day]);
}
const cpu = process.cpuUsage(cpu0);
const fmt = (n: number) => n.toLocaleString('en-US');
console.log(
  `simulated to ${new Date(sim.time).toISOString()}: ${fmt(rows.fills)} fills, ${fmt(rows.marketSnapshots)} market and ` +
    `${fmt(rows.positionSnapshots)} position snapshots in ${((performance.now() - t0) / 1000).toFixed(1)} s ` +
    `(${((cpu.user + cpu.system) / 1e6).toFixed(1)} CPU-s in this process)`,
);
