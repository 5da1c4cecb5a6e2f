/**
 * What the strings of a fill cost to store (issue 7): `npm run bench:fill-insert -- [--data DIR]
 * [--from 5000001] [--chunks 3] [--rounds 2]`. Copies `--chunks` 1M-fill seq ranges from seq `--from` of a journal (default the
 * bench's, /tmp/perps-bench) into a temp table, then times inserting each range, in seq order as
 * a rebuild chunk does, into four shapes of the derived `fills` table, rounds alternating:
 * - `today`: sql/schema/derived.sql's `fills`;
 * - `no position_key`: without it (a function of position_id; no read of `fills` uses it);
 * - `integer ids`: protocol, type, the account, the market (market, variant, side) and the
 *   collateral token as small integers, tx kept;
 * - `integer ids, no tx`: also without tx (it would live in the journal or a table of its own).
 * The integers are stand-ins of the width real ids would have (hashes, not a dictionary): what
 * is measured is the insert, not how ids are assigned. Each insert is rolled back. Prints the
 * median wall and CPU seconds per 1M fills; the insert is most of a rebuild chunk's `stage` and of
 * an append's `insert-fills` (README "Rebuild").
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from '../db/database.ts';
import { sqlFile } from '../db/sql-files.ts';
import { FILL_COLUMNS } from '../journal/rows.ts';

const { values: args } = parseArgs({
  options: { data: { type: 'string' }, from: { type: 'string', default: '5000001' }, chunks: { type: 'string', default: '3' }, rounds: { type: 'string', default: '2' } },
});
const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
const CHUNK = 1_000_000;
const first = Number(args.from);
const chunks = Math.max(1, Number(args.chunks));
const rounds = Math.max(1, Number(args.rounds));

/** A fill's columns, as the journal and `fills` hold them. */
const FILL_NAMES = FILL_COLUMNS.map(([name]) => name).join(', ');
const ID_COLUMNS = `seq, (protocol = 'beta')::UTINYINT AS protocol, time, slot, tx, event_index, position_id,
  (hash(address) % 1000000)::INTEGER AS account_id, (hash(market, market_variant, side) % 65000)::USMALLINT AS market_id,
  (hash(type) % 250)::UTINYINT AS "type", size_delta_usd, position_size_usd, collateral_delta_usd, position_collateral_usd,
  price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd, funding_fee_usd, liquidation_fee_usd, funding_earned_usd,
  fee_total_usd, index_price, (hash(collateral_token) % 65000)::USMALLINT AS collateral_token_id`;

/** Each shape: the table it inserts into (made empty from the source) and what it selects. */
const SHAPES = [
  { name: 'today', table: 'fills', select: `SELECT ${FILL_NAMES} FROM src` },
  { name: 'no position_key', table: 'fills_no_key', select: `SELECT * EXCLUDE (position_key) FROM src` },
  { name: 'integer ids', table: 'fills_ids', select: 'SELECT * FROM src_ids' },
  { name: 'integer ids, no tx', table: 'fills_ids_no_tx', select: 'SELECT * EXCLUDE (tx) FROM src_ids' },
];

if (!existsSync(join(dataDir, 'journal', 'fills'))) {
  console.error(`${dataDir} has no journal of fills: \`npm run bench\` builds one there (or pass --data DIR)`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'perps-fill-insert-'));
// a file database with the service's settings (no FSST, checkpoint threshold, memory limit)
const db = await Database.open(join(dir, 'state.duckdb'));
const figures = new Map<string, { wall: number[]; cpu: number[] }>(SHAPES.map((s) => [s.name, { wall: [], cpu: [] }]));
try {
  await db.write(async (w) => {
    const last = first + chunks * CHUNK - 1;
    const glob = `${dataDir}/journal/fills/*/*/*.parquet`.replaceAll("'", "''");
    await w.exec(sqlFile('schema/derived'));
    await w.exec(`CREATE TEMP TABLE src AS SELECT ${FILL_NAMES} FROM read_parquet('${glob}', hive_partitioning = true)
      WHERE seq BETWEEN ${first} AND ${last}`);
    const [{ n }] = await w.rows('SELECT count(*)::INTEGER AS n FROM src') as [{ n: number }];
    if (n < chunks * CHUNK) throw new Error(`${dataDir}: ${n} fills with seq in ${first}..${last}, expected ${chunks * CHUNK} (npm run bench builds the journal)`);
    await w.exec(`CREATE TEMP TABLE src_ids AS SELECT ${ID_COLUMNS} FROM src`);
    for (const s of SHAPES.slice(1)) await w.exec(`CREATE TABLE ${s.table} AS ${s.select} LIMIT 0`);
    for (let round = 0; round < rounds; round++) {
      for (const shape of SHAPES) {
        for (let c = 0; c < chunks; c++) {
          const from = first + c * CHUNK;
          await w.exec('BEGIN TRANSACTION');
          const t0 = performance.now();
          const cpu0 = process.cpuUsage();
          await w.exec(`INSERT INTO ${shape.table} ${shape.select} WHERE seq BETWEEN ${from} AND ${from + CHUNK - 1} ORDER BY seq`);
          const cpu = process.cpuUsage(cpu0);
          figures.get(shape.name)!.wall.push((performance.now() - t0) / 1000);
          figures.get(shape.name)!.cpu.push((cpu.user + cpu.system) / 1e6);
          await w.exec('ROLLBACK');
        }
      }
    }
  });
} finally {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base = median(figures.get('today')!.cpu);
console.log(`inserting 1M fills in seq order (${chunks} chunks × ${rounds} rounds, medians; ${dataDir})`);
console.log('shape                   wall s   CPU-s   CPU vs today');
for (const [name, f] of figures) {
  const cpu = median(f.cpu);
  console.log(`${name.padEnd(22)} ${median(f.wall).toFixed(2).padStart(7)} ${cpu.toFixed(2).padStart(7)} ${`${((cpu / base) * 100).toFixed(0)} %`.padStart(14)}`);
}
