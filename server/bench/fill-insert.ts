/**
 * What the strings of a fill cost to store: `npm run bench:fill-insert -- [--data DIR]
 * [--from 5000001] [--chunks 3] [--rounds 2]`. Copies `--chunks` 1M-fill seq ranges from seq `--from` of a journal (default the
 * bench's, /tmp/perps-bench) into a temp table, then times inserting each range, in seq order as
 * a rebuild chunk does, into four shapes of the derived `fills` table, rounds alternating:
 * - `today`: sql/schema/derived.sql's `fills`;
 * - `no position_key`: without it (a function of position_id; no read of `fills` uses it);
 * - `integer ids`: protocol, type, the account, the market (market, variant, side) and the
 *   collateral token as small integers, tx kept;
 * - `integer ids, no tx`: also without tx (it would live in the journal or a table of its own);
 * - `ids from dictionaries`: what a rebuild would pay for ids while the journal holds strings:
 *   the account and market ids looked up by hash joins of the chunk against an account and a
 *   market dictionary (filled beforehand with every key of the copied ranges, as in a late chunk
 *   of a rebuild; the chunk's anti-join for new keys, then finding none, is timed too), and
 *   protocol, side and type as ENUMs, position_key left out.
 * The integers of the two shapes before it are stand-ins of the width real ids would have
 * (hashes, not a dictionary): they measure the insert alone. Each insert is rolled back. Prints the
 * median wall and CPU seconds per 1M fills; the insert is most of a rebuild chunk's `stage` and of
 * an append's `insert-fills` (docs/performance.md, "Rebuild").
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
  { name: 'ids from dictionaries', table: 'fills_dict', select: '' },
];

/** The `ids from dictionaries` shape: its types, dictionaries and table. */
const DICTIONARY_SCHEMA = `
  CREATE TYPE protocol_t AS ENUM ('alpha', 'beta'); CREATE TYPE side_t AS ENUM ('long', 'short');
  CREATE TYPE fill_type_t AS ENUM ('open', 'increase', 'decrease', 'close', 'liquidation');
  CREATE TABLE account_ids (account_id INTEGER NOT NULL, protocol VARCHAR NOT NULL, address VARCHAR NOT NULL);
  CREATE TABLE market_ids (market_id SMALLINT NOT NULL, protocol VARCHAR NOT NULL, market VARCHAR NOT NULL, market_variant VARCHAR);
  CREATE TABLE fills_dict AS SELECT seq, protocol::protocol_t AS protocol, time, slot, tx, event_index, position_id,
    0::INTEGER AS account_id, 0::SMALLINT AS market_id, side::side_t AS side, type::fill_type_t AS type,
    size_delta_usd, position_size_usd, collateral_delta_usd, position_collateral_usd, price, entry_price, pnl_delta_usd,
    fee_usd, borrowing_fee_usd, funding_fee_usd, liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price,
    collateral_token FROM src LIMIT 0`;

/** New keys of the chunk into the dictionaries (an anti-join each), then the chunk mapped to ids. */
function dictionaryInsert(from: number, to: number): string {
  const chunk = `(SELECT * FROM src WHERE seq BETWEEN ${from} AND ${to})`;
  return `INSERT INTO account_ids SELECT (SELECT coalesce(max(account_id), 0) FROM account_ids) + row_number() OVER (), protocol, address
      FROM (SELECT DISTINCT protocol, address FROM ${chunk}) n
      WHERE NOT EXISTS (SELECT 1 FROM account_ids a WHERE a.protocol = n.protocol AND a.address = n.address);
    INSERT INTO market_ids SELECT (SELECT coalesce(max(market_id), 0) FROM market_ids) + row_number() OVER (), protocol, market, market_variant
      FROM (SELECT DISTINCT protocol, market, market_variant FROM ${chunk}) n
      WHERE NOT EXISTS (SELECT 1 FROM market_ids m WHERE m.protocol = n.protocol AND m.market = n.market
                          AND m.market_variant IS NOT DISTINCT FROM n.market_variant);
    INSERT INTO fills_dict SELECT seq, c.protocol::protocol_t, time, slot, tx, event_index, position_id, a.account_id,
      m.market_id, side::side_t, type::fill_type_t, size_delta_usd, position_size_usd, collateral_delta_usd,
      position_collateral_usd, price, entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd, funding_fee_usd,
      liquidation_fee_usd, funding_earned_usd, fee_total_usd, index_price, collateral_token
    FROM ${chunk} c
    JOIN account_ids a ON a.protocol = c.protocol AND a.address = c.address
    JOIN market_ids m ON m.protocol = c.protocol AND m.market = c.market AND m.market_variant IS NOT DISTINCT FROM c.market_variant
    ORDER BY seq`;
}

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
    // read by column name: a journal written before position_entry_price gives null there
    await w.exec(`CREATE TEMP TABLE src AS SELECT ${FILL_NAMES} FROM (
        SELECT * FROM read_parquet('${glob}', hive_partitioning = true, union_by_name = true)
        UNION ALL BY NAME SELECT NULL::DOUBLE AS position_entry_price WHERE false)
      WHERE seq BETWEEN ${first} AND ${last}`);
    const [{ n }] = (await w.rows('SELECT count(*)::INTEGER AS n FROM src')) as [{ n: number }];
    if (n < chunks * CHUNK) throw new Error(`${dataDir}: ${n} fills with seq in ${first}..${last}, expected ${chunks * CHUNK} (npm run bench builds the journal)`);
    await w.exec(`CREATE TEMP TABLE src_ids AS SELECT ${ID_COLUMNS} FROM src`);
    for (const s of SHAPES.slice(1, 4)) await w.exec(`CREATE TABLE ${s.table} AS ${s.select} LIMIT 0`);
    await w.exec(DICTIONARY_SCHEMA);
    await w.exec(`${dictionaryInsert(first, last)}; DELETE FROM fills_dict`);
    for (let round = 0; round < rounds; round++) {
      for (const shape of SHAPES) {
        for (let c = 0; c < chunks; c++) {
          const from = first + c * CHUNK;
          await w.exec('BEGIN TRANSACTION');
          const t0 = performance.now();
          const cpu0 = process.cpuUsage();
          await w.exec(shape.select ? `INSERT INTO ${shape.table} ${shape.select} WHERE seq BETWEEN ${from} AND ${from + CHUNK - 1} ORDER BY seq` : dictionaryInsert(from, from + CHUNK - 1));
          const cpu = process.cpuUsage(cpu0);
          figures.get(shape.name)!.wall.push((performance.now() - t0) / 1000);
          figures.get(shape.name)!.cpu.push((cpu.user + cpu.system) / 1e6);
          const [{ inserted }] = (await w.rows(`SELECT count(*)::INTEGER AS inserted FROM ${shape.table}`)) as [{ inserted: number }];
          if (inserted !== CHUNK) throw new Error(`${shape.name}: ${inserted} rows inserted of ${CHUNK}`);
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
