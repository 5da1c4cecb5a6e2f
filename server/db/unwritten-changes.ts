/**
 * Keeps a bulk load's unwritten changes to the derived state bounded. The derived state keeps no
 * WAL (Database.open), so every change since the last checkpoint lives in memory, uncompressed,
 * as DuckDB's in-memory table data, and DuckDB's own checkpoint threshold never triggers (it
 * counts WAL bytes). Over the demo backfill that grew to ~1.4 GB before the final checkpoint,
 * most of the process's peak RSS (docs/operations.md, "Memory").
 */
import { log } from '../lib/log.ts';
import type { Database } from './database.ts';

/** Unwritten changes past which a bulk load checkpoints (PERPS_CHECKPOINT_UNWRITTEN, default 512MB). */
export const DEFAULT_UNWRITTEN_LIMIT = '512MB';

const UNITS: Record<string, number> = { KB: 1e3, MB: 1e6, GB: 1e9, KIB: 1024, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** Bytes of a size such as `384MB` or `1GiB`; throws, naming the variable, on anything else. */
export function unwrittenLimitFrom(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PERPS_CHECKPOINT_UNWRITTEN ?? DEFAULT_UNWRITTEN_LIMIT;
  const m = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|KiB|MiB|GiB)$/i.exec(raw.trim());
  if (!m) throw new Error(`PERPS_CHECKPOINT_UNWRITTEN "${raw}": expected a size such as 512MB or 1GiB`);
  return Number(m[1]) * UNITS[m[2]!.toUpperCase()]!;
}

/** Bytes DuckDB holds as in-memory table data: the derived state's changes since its last
 * checkpoint, and the staging tables of an append in flight. */
export async function unwrittenBytes(db: Database): Promise<number> {
  const [row] = await db.querySql("SELECT coalesce(sum(memory_usage_bytes), 0)::BIGINT AS bytes FROM duckdb_memory() WHERE tag = 'IN_MEMORY_TABLE'");
  return Number(row?.bytes ?? 0);
}

/**
 * Checkpoints when more than `limitBytes` of changes are unwritten; true when it did. A checkpoint
 * that reads in flight hold off (Writer.checkpoint) is left to the next call: a bulk load must not
 * stop for it.
 */
export async function checkpointWhenLarge(db: Database, limitBytes: number): Promise<boolean> {
  const bytes = await unwrittenBytes(db);
  if (bytes <= limitBytes) return false;
  try {
    await db.checkpoint(2_000);
    log.debug(`checkpoint: ${Math.round(bytes / 2 ** 20)} MiB of unwritten changes written to the derived state's file`);
    return true;
  } catch (err) {
    log.debug(`checkpoint of ${Math.round(bytes / 2 ** 20)} MiB of unwritten changes deferred: ${(err as Error).message}`);
    return false;
  }
}
