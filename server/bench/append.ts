/**
 * Append-path micro-benchmark: `npm run bench:append -- [--fills N] [--scale S] [--rows R] [--from T]`.
 * Simulates about N fills first (seed 42, scale S, from time T, in memory, not timed), then
 * appends them to a fresh data directory in batches of about R rows, as the backfill does
 * (columns handed over, validation, dedup, ids, journal commit, derived state), and prints
 * fills/s and rows/s with wall and CPU time of the append part alone.
 */
// first, for its side effect: the bulk commands' allocator settings, read when DuckDB loads
import './bulk-process.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { batchOfGroup, packBatches, rowsOf, type ColumnGroup } from '../ingest/column-groups.ts';
import type { IncomingBatch } from '../journal/rows.ts';
import { openService } from '../service.ts';
import { Simulator } from '../sources/simulate/simulator.ts';

const { values } = parseArgs({
  options: {
    fills: { type: 'string', default: '1000000' },
    scale: { type: 'string', default: '10' },
    rows: { type: 'string', default: '600000' },
    from: { type: 'string', default: '2025-03-12T00:00:00Z' },
  },
});
const target = Number(values.fills);
const rowsPerAppend = Number(values.rows);
const sim = new Simulator({ seed: 42, scale: Number(values.scale) });
if (Date.parse(values.from) > sim.time) for (const _ of sim.batches(Date.parse(values.from), true));

// the backfill's hand-over (worker → main thread): column groups, rows decoded from them
const groups: ColumnGroup[] = [];
let parts: IncomingBatch[] = [];
let rows = 0;
let fills = 0;
const flush = () => {
  groups.push(packBatches(parts));
  parts = [];
  rows = 0;
};
for (const day of sim.batches(Date.now(), true)) {
  parts.push(day);
  rows += rowsOf(day);
  fills += day.fills.length;
  if (rows >= rowsPerAppend || fills >= target) flush();
  if (fills >= target) break;
}
if (parts.length) flush();

const dir = mkdtempSync(join(tmpdir(), 'perps-bench-'));
const service = await openService({ dataDir: dir });
const cpu0 = process.cpuUsage();
const faults0 = process.resourceUsage().minorPageFault;
const t0 = performance.now();
let total = 0;
for (const g of groups) {
  const batch = batchOfGroup(g);
  total += batch.fills.length + batch.positionSnapshots.length + g.marketSnapshots.length;
  await service.append(batch);
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const faults = process.resourceUsage().minorPageFault - faults0;
await service.close();
rmSync(dir, { recursive: true, force: true });
const f = (n: number) => Math.round(n).toLocaleString('en-US');
console.log(
  `appended ${f(fills)} fills (${f(total)} rows) in ${groups.length} appends: ${seconds.toFixed(1)} s wall, ` +
    `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (${(cpu.system / 1e6).toFixed(1)} system, ${f(faults)} page faults) → ` +
    `${f(fills / seconds)} fills/s, ${f(total / seconds)} rows/s`,
);
