/**
 * Candles of one market's index price (GET /v1/{protocol}/prices/history): market snapshots are
 * read from the journal's Parquet files (the derived state keeps no snapshot prices), fills' index
 * prices from the derived `fills` before the market's first snapshot. See sql/api/prices-history.sql.
 */
import { join } from 'node:path';
import { sqlFile } from '../db/sql-files.ts';
import type { Row } from '../db/database.ts';
import { journalDir } from '../journal/layout.ts';
import type { Protocol } from '../journal/rows.ts';
import type { Service } from '../service.ts';
import type { HistoryWindow } from './history-window.ts';

const DAY_MS = 86_400_000;
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The quoted glob of a protocol's market-snapshot files. */
function snapshotGlob(service: Service, protocol: Protocol): string {
  return `'${join(journalDir(service.dataDir), 'market_snapshots', `protocol=${protocol}`, '*', '*.parquet').replaceAll("'", "''")}'`;
}

/**
 * Runs a Parquet-reading SQL file with the glob spliced in; no file yet = no row. A file the
 * compaction job replaced between the glob and the read is read again once, from the new list.
 */
async function parquetQuery(service: Service, protocol: Protocol, name: string, params: Record<string, string | number | null>): Promise<Row[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await service.db.querySql(sqlFile(name).replaceAll('__GLOB__', snapshotGlob(service, protocol)), params);
    } catch (err) {
      if (/No files found/i.test(String(err))) return [];
      if (attempt === 0 && /No such file|cannot open file/i.test(String(err))) continue;
      throw err;
    }
  }
}

/**
 * First snapshot times found, per service and `protocol market`: a market's first snapshot never
 * changes once it exists (the journal is append-only and a snapshot older than the kept ones is
 * dropped at append), so it is read once; a market without one is asked again each time.
 */
const firstSnapshots = new WeakMap<Service, Map<string, number>>();

/** The market's first snapshot time (epoch ms), or null when it has none. */
async function firstSnapshot(service: Service, protocol: Protocol, market: string): Promise<number | null> {
  let known = firstSnapshots.get(service);
  if (!known) firstSnapshots.set(service, known = new Map());
  const cached = known.get(`${protocol} ${market}`);
  if (cached !== undefined) return cached;
  const found = await readFirstSnapshot(service, protocol, market);
  if (found !== null) known.set(`${protocol} ${market}`, found);
  return found;
}

async function readFirstSnapshot(service: Service, protocol: Protocol, market: string): Promise<number | null> {
  const dayMs = (await service.db.queryOne('api/prices-first-day', { protocol, market }))?.day_ms;
  if (typeof dayMs !== 'number') return null;
  const [row] = await parquetQuery(service, protocol, 'api/prices-first-snapshot', { market, from_day: day(dayMs), to_day: day(dayMs + DAY_MS) });
  return typeof row?.first_ms === 'number' ? row.first_ms : null;
}

/** The candles of `market` in window `w`, oldest first. */
export async function priceCandles(service: Service, protocol: Protocol, market: string, w: HistoryWindow): Promise<Row[]> {
  const first = await firstSnapshot(service, protocol, market);
  return parquetQuery(service, protocol, 'api/prices-history', {
    protocol, market, from: w.from, to: w.to, from_day: day(w.from), to_day: day(w.to), bucket_ms: w.bucketMs, first_snapshot: first,
  });
}
