import { Database } from '../../server/db/database.ts';

export const DERIVED_TABLES = [
  'fills',
  'market_latest',
  'position_latest',
  'lifecycles',
  'accounts',
  'rollup_5m',
  'markets',
  'oi_snapshot_5m',
  'funding_1h',
  'meta',
  'rollup_1d',
  'oi_snapshot_1d',
  'liquidations',
  'open_lifecycles',
  'open_position_latest',
  'rollup_1h',
  'oi_snapshot_1h',
  'price_5m',
  'fills_by_address',
  'price_1h',
  'price_1d',
];

/**
 * Compares two derived-state database files table by table with EXCEPT ALL both ways (exact
 * value equality, doubles included). Returns, per table, the row counts and how many rows of
 * each side the other lacks; all zero differences means identical contents.
 */
export async function diffStates(a: string, b: string): Promise<Record<string, { rows: number; otherRows: number; onlyA: number; onlyB: number }>> {
  const db = await Database.open(a, { readers: 1 });
  try {
    await db.querySql(`ATTACH '${b.replaceAll("'", "''")}' AS other (READ_ONLY)`);
    const out: Record<string, { rows: number; otherRows: number; onlyA: number; onlyB: number }> = {};
    for (const t of DERIVED_TABLES) {
      const [r] = await db.querySql(
        `SELECT (SELECT count(*) FROM main.${t}) AS rows, (SELECT count(*) FROM other.${t}) AS other_rows,
                (SELECT count(*) FROM (SELECT * FROM main.${t} EXCEPT ALL SELECT * FROM other.${t})) AS only_a,
                (SELECT count(*) FROM (SELECT * FROM other.${t} EXCEPT ALL SELECT * FROM main.${t})) AS only_b`,
      );
      out[t] = { rows: r!.rows as number, otherRows: r!.other_rows as number, onlyA: r!.only_a as number, onlyB: r!.only_b as number };
    }
    return out;
  } finally {
    await db.close();
  }
}
