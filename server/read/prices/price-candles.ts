/**
 * Candles of one market's index price (GET /v1/{protocol}/prices/history): market snapshots from
 * the derived OHLC levels (`price_1d`, `price_1h`, `price_5m`, the coarsest that covers a piece
 * whole) for the window's whole 5-minute buckets and from the journal's Parquet files of the edge
 * days for its partial ones, fills' index prices from the same levels of fills (and raw `fills`
 * for partial buckets) before the market's first snapshot. See sql/read/prices/prices-history.sql.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sqlFile } from '../../db/sql-files.ts';
import type { Row } from '../../db/database.ts';
import { journalDir } from '../../journal/layout.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { Service } from '../../service.ts';
import type { HistoryWindow } from '../window.ts';
import { DAY_MS, FIVE_MINUTES_MS } from '../../lib/time.ts';
import { sumPieces } from '../buckets/history-pieces.ts';

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
  if (!known) firstSnapshots.set(service, (known = new Map()));
  const cached = known.get(`${protocol} ${market}`);
  if (cached !== undefined) return cached;
  const found = await readFirstSnapshot(service, protocol, market);
  if (found !== null) known.set(`${protocol} ${market}`, found);
  return found;
}

async function readFirstSnapshot(service: Service, protocol: Protocol, market: string): Promise<number | null> {
  const dayMs = (await service.db.queryOne('read/prices/prices-first-day', { protocol, market }))?.day_ms;
  if (typeof dayMs !== 'number') return null;
  const [row] = await parquetQuery(service, protocol, 'read/prices/prices-first-snapshot', { market, from_day: day(dayMs), to_day: day(dayMs + DAY_MS) });
  return typeof row?.first_ms === 'number' ? row.first_ms : null;
}

/** The quoted Parquet files of a protocol's market snapshots on the given UTC days (those that exist). */
function snapshotFiles(service: Service, protocol: Protocol, days: readonly string[]): string[] {
  const files: string[] = [];
  for (const d of new Set(days)) {
    const dir = join(journalDir(service.dataDir), 'market_snapshots', `protocol=${protocol}`, `day=${d}`);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) if (name.endsWith('.parquet')) files.push(`'${join(dir, name).replaceAll("'", "''")}'`);
  }
  return files;
}

/** The candles of `market` in window `w`, oldest first. */
export async function priceCandles(service: Service, protocol: Protocol, market: string, w: HistoryWindow): Promise<Row[]> {
  const first = await firstSnapshot(service, protocol, market);
  // whole 5-minute buckets come from price_5m, the partial ones at the window's ends from the journal
  const innerFrom = Math.min(Math.ceil(w.from / FIVE_MINUTES_MS) * FIVE_MINUTES_MS, w.to);
  const innerTo = Math.max(Math.floor(w.to / FIVE_MINUTES_MS) * FIVE_MINUTES_MS, innerFrom);
  const edgeDays = [...(w.from < innerFrom ? [day(w.from), day(innerFrom - 1)] : []), ...(innerTo < w.to ? [day(innerTo), day(w.to - 1)] : [])];
  // fills count before the first snapshot: their whole 5-minute buckets up to the first snapshot's
  // bucket from price_5m, the rest (window edges, that bucket's part before the snapshot) raw
  const fillTo = Math.min(w.to, first ?? w.to);
  const fillInnerTo = Math.max(Math.min(innerTo, first === null ? innerTo : Math.floor(first / FIVE_MINUTES_MS) * FIVE_MINUTES_MS), innerFrom);
  // whole days, hours and 5-minute buckets of each source's range from the coarsest price level
  const pieces = (prefix: string, lo: number, hi: number) =>
    Object.fromEntries(
      Object.entries(sumPieces(lo, hi, w.bucketMs))
        .filter(([k]) => !k.startsWith('f'))
        .map(([k, x]) => [`${prefix}_${k}`, x]),
    );
  const params = {
    protocol,
    market,
    from: w.from,
    to: w.to,
    inner_from: innerFrom,
    inner_to: innerTo,
    bucket_ms: w.bucketMs,
    fill_lo_to: Math.min(innerFrom, fillTo),
    fill_hi_from: Math.max(fillInnerTo, w.from),
    fill_to: fillTo,
    ...pieces('snap', innerFrom, innerTo),
    ...pieces('fill', innerFrom, fillInnerTo),
  };
  for (let attempt = 0; ; attempt++) {
    const files = snapshotFiles(service, protocol, edgeDays);
    const edge = files.length === 0 ? "SELECT 0::BIGINT AS t_us, 0::DOUBLE AS price, '' AS k WHERE false" : sqlFile('read/prices/prices-edge').replace('__FILES__', `[${files.join(', ')}]`);
    try {
      return await service.db.querySql(sqlFile('read/prices/prices-history').replace('__EDGE__', edge), params);
    } catch (err) {
      // a file the compaction job replaced between the listing and the read: list again once
      if (attempt === 0 && /No such file|cannot open file|No files found/i.test(String(err))) continue;
      throw err;
    }
  }
}
