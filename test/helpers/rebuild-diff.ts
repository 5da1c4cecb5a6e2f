import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { rebuildState } from '../../server/derive/rebuild.ts';
import type { Service } from '../../server/service.ts';
import { DERIVED_TABLES } from './state-diff.ts';

let counter = 0;

/**
 * Rebuilds the derived state from the service's journal alone into a side file and compares it
 * with the live state, table by table (EXCEPT ALL both ways), while the service stays open.
 * Returns the tables that differ with the number of rows only on each side.
 */
export async function diffWithRebuild(service: Service): Promise<Record<string, { onlyLive: number; onlyRebuilt: number }>> {
  const target = join(service.dataDir, `rebuilt-${process.pid}-${++counter}.duckdb`);
  await rebuildState(service.dataDir, target);
  const alias = `rebuilt_${counter}`;
  await service.db.querySql(`ATTACH '${target}' AS ${alias} (READ_ONLY)`);
  const out: Record<string, { onlyLive: number; onlyRebuilt: number }> = {};
  try {
    for (const t of DERIVED_TABLES) {
      const [r] = await service.db.querySql(
        `SELECT (SELECT count(*) FROM (SELECT * FROM main.${t} EXCEPT ALL SELECT * FROM ${alias}.${t})) AS a,
                (SELECT count(*) FROM (SELECT * FROM ${alias}.${t} EXCEPT ALL SELECT * FROM main.${t})) AS b`,
      );
      if (Number(r!.a) || Number(r!.b)) out[t] = { onlyLive: Number(r!.a), onlyRebuilt: Number(r!.b) };
    }
  } finally {
    await service.db.querySql(`DETACH ${alias}`);
    rmSync(target, { force: true });
    rmSync(`${target}.wal`, { force: true });
  }
  return out;
}
