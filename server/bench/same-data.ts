/**
 * Checks that two data directories hold the same data: `npm run -s same-data -- <dirA> <dirB>`.
 * Compares every journal kind (all Parquet files of the kind, as one multiset of rows: EXCEPT ALL
 * both ways) and the list of journal file paths, then every table of the two `state.duckdb`
 * files the same way. Exits 1 on any difference. Made to prove that a write-path optimisation
 * changes neither the journal nor the derived state: run the same `simulate --until T` with the
 * old and the new code into two directories, then this.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { kindGlob } from '../journal/layout.ts';
import type { JournalKind } from '../journal/rows.ts';

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error('usage: same-data <dirA> <dirB>');
  process.exit(2);
}
const KINDS: JournalKind[] = ['fills', 'market_snapshots', 'position_snapshots'];
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Every file under `dir`, relative to it, sorted. */
function files(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const count = async (sql: string) => Number((await conn.runAndReadAll(`SELECT count(*) FROM (${sql})`)).getRows()[0]![0]);
let differences = 0;

/** Rows of `x` not in `y` and of `y` not in `x` (multisets); logs and counts a difference. */
async function compare(what: string, x: string, y: string): Promise<void> {
  const [n, onlyX, onlyY] = [await count(x), await count(`${x} EXCEPT ALL ${y}`), await count(`${y} EXCEPT ALL ${x}`)];
  const ok = onlyX === 0 && onlyY === 0 && n === (await count(y));
  if (!ok) differences++;
  console.log(`${ok ? 'same' : 'DIFFERENT'}  ${what}: ${n} rows${ok ? '' : `, ${onlyX} only in A, ${onlyY} only in B`}`);
}

for (const kind of KINDS) {
  const has = (dir: string) => files(join(dir, 'journal')).some((f) => f.startsWith(`${kind}/`) && f.endsWith('.parquet'));
  if (!has(a) && !has(b)) {
    console.log(`same  journal ${kind}: no files`);
    continue;
  }
  const read = (dir: string) => `SELECT * FROM read_parquet(${literal(kindGlob(dir, kind))}, hive_partitioning = false, union_by_name = true)`;
  await compare(`journal ${kind}`, read(a), read(b));
}
const parquet = (dir: string) => files(join(dir, 'journal')).filter((f) => f.endsWith('.parquet'));
const [fa, fb] = [parquet(a), parquet(b)];
const sameNames = fa.length === fb.length && fa.every((f, i) => f === fb[i]);
if (!sameNames) differences++;
console.log(`${sameNames ? 'same' : 'DIFFERENT'}  journal file names: ${fa.length} vs ${fb.length} files`);

await conn.run(`ATTACH ${literal(join(a, 'state.duckdb'))} AS sa (READ_ONLY)`);
await conn.run(`ATTACH ${literal(join(b, 'state.duckdb'))} AS sb (READ_ONLY)`);
const tables = async (cat: string) => (await conn.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = '${cat}' ORDER BY 1`)).getRows().map((r) => String(r[0]));
const [ta, tb] = [await tables('sa'), await tables('sb')];
if (ta.join() !== tb.join()) {
  differences++;
  console.log(`DIFFERENT  state tables: ${ta.join(' ')} vs ${tb.join(' ')}`);
}
// meta's derive_version is a hash of the derive SQL: it differs whenever what that SQL runs changed
const rowsOf = (cat: string, t: string) => `SELECT * FROM ${cat}."${t}"${t === 'meta' ? ` WHERE key <> 'derive_version'` : ''}`;
for (const t of ta.filter((x) => tb.includes(x))) await compare(`state ${t}`, rowsOf('sa', t), rowsOf('sb', t));
conn.closeSync();
db.closeSync();
console.log(differences ? `${differences} difference(s)` : 'identical');
process.exit(differences ? 1 : 0);
