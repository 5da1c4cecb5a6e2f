/**
 * The chaos run's check that the API agrees with a recount: a server on the faulted data directory
 * with nothing feeding it (`--source none`, no jobs), so neither side moves, and a few answers
 * recomputed from the journal's Parquet files alone with DuckDB: `GET /v1/alpha/volume/history`
 * (every 1-day bucket of the whole journal, and 1-hour buckets of one market over the last three
 * days, whose edges are partial) and `GET /v1/alpha/open-positions/stats` (protocol-wide and one
 * market: counts and notional per side).
 */
import { Database } from '../db/database.ts';
import { kindGlob } from '../journal/layout.ts';
import { startApiServer } from '../bench/server-process.ts';
import { DAY_MS } from '../lib/time.ts';

export interface RecountCheck {
  what: string;
  /** what differs, empty when the answer equals the recount */
  differences: string[];
}

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const MARKET = 'SOL-PERP';

type Bucket = { time: number; volume_usd: number; fees_usd: number };
type Stats = { total_positions: number; long_positions: number; short_positions: number; long_notional_usd: number; short_notional_usd: number };

async function api<T>(url: string, key: string): Promise<T> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as { data: T };
  if (res.status !== 200) throw new Error(`chaos: ${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Buckets that differ between the answer and the recount, by time. */
function bucketDifferences(served: Bucket[], recounted: Bucket[]): string[] {
  const byTime = new Map(recounted.map((b) => [b.time, b]));
  const out: string[] = [];
  for (const b of served) {
    const r = byTime.get(b.time);
    byTime.delete(b.time);
    if (!r) out.push(`${new Date(b.time).toISOString()}: served, not recounted`);
    else if (r.volume_usd !== b.volume_usd || r.fees_usd !== b.fees_usd) {
      out.push(`${new Date(b.time).toISOString()}: volume ${b.volume_usd} vs ${r.volume_usd}, fees ${b.fees_usd} vs ${r.fees_usd}`);
    }
  }
  for (const r of byTime.values()) out.push(`${new Date(r.time).toISOString()}: recounted, not served`);
  return out;
}

function statsDifferences(served: Stats, recounted: Stats): string[] {
  return (Object.keys(recounted) as (keyof Stats)[]).filter((k) => served[k] !== recounted[k]).map((k) => `${k}: ${served[k]} vs ${recounted[k]}`);
}

/** Recounts volume buckets of `[from, to)` from the journal's fills. */
async function recountVolume(db: Database, dataDir: string, bucketMs: number, from: number, to: number, market: string | null): Promise<Bucket[]> {
  const rows = await db.querySql(`
    SELECT epoch_ms(time) // ${bucketMs} * ${bucketMs} AS time,
           round(sum(CASE WHEN type <> 'liquidation' THEN abs(size_delta_usd) ELSE 0 END), 6)::DOUBLE AS volume_usd,
           round(sum(fee_usd), 6)::DOUBLE AS fees_usd
    FROM read_parquet(${q(kindGlob(dataDir, 'fills'))}, hive_partitioning = true)
    WHERE protocol = 'alpha' AND time >= epoch_ms(${from}::BIGINT) AND time < epoch_ms(${to}::BIGINT)
      ${market ? `AND market = ${q(market)}` : ''}
    GROUP BY 1 ORDER BY 1`);
  return rows.map((r) => ({ time: Number(r.time), volume_usd: Number(r.volume_usd), fees_usd: Number(r.fees_usd) }));
}

/**
 * Recounts open positions from the journal: a lifecycle is open while its last fill (by seq) is
 * neither a close nor a liquidation; its size is that of its newest position snapshot (by time,
 * then journal order) when that is not older than its last fill, else the last fill's.
 */
async function recountOpen(db: Database, dataDir: string, market: string | null): Promise<Stats> {
  const [r] = await db.querySql(`
    WITH life AS (
      SELECT position_id, arg_max(type, seq) AS last_type, any_value(side) AS side, any_value(market) AS market,
             arg_max(position_size_usd, seq) AS size, max(time) AS last_at
      FROM read_parquet(${q(kindGlob(dataDir, 'fills'))}, hive_partitioning = true)
      WHERE protocol = 'alpha' GROUP BY position_id
    ),
    snap AS (
      SELECT position_id, max(time) AS t,
             arg_max(size_usd, (time, regexp_extract(filename, '(\\d{12})-\\d{12}\\.parquet$', 1)::BIGINT, file_row_number)) AS size
      FROM read_parquet(${q(kindGlob(dataDir, 'position_snapshots'))}, hive_partitioning = true, filename = true, file_row_number = true)
      WHERE protocol = 'alpha' GROUP BY position_id
    ),
    open AS (
      SELECT o.side, CASE WHEN s.t >= o.last_at THEN s.size ELSE o.size END AS size
      FROM life o LEFT JOIN snap s USING (position_id)
      WHERE o.last_type NOT IN ('close', 'liquidation') ${market ? `AND o.market = ${q(market)}` : ''}
    )
    SELECT count(*)::BIGINT AS total_positions,
           count(*) FILTER (WHERE side = 'long')::BIGINT AS long_positions,
           count(*) FILTER (WHERE side = 'short')::BIGINT AS short_positions,
           round(coalesce(sum(size) FILTER (WHERE side = 'long'), 0), 6)::DOUBLE AS long_notional_usd,
           round(coalesce(sum(size) FILTER (WHERE side = 'short'), 0), 6)::DOUBLE AS short_notional_usd
    FROM open`);
  return Object.fromEntries(Object.entries(r!).map(([k, v]) => [k, Number(v)])) as Stats;
}

const toBuckets = (rows: { time: string; volume_usd: number; fees_usd: number }[]): Bucket[] => rows.map((b) => ({ time: Date.parse(b.time), volume_usd: b.volume_usd, fees_usd: b.fees_usd }));

/** Serves the stopped data directory without a source and compares a few answers with recounts from its journal. */
export async function apiAgainstRecount(dataDir: string, key: string): Promise<RecountCheck[]> {
  const server = await startApiServer(dataDir, { PERPS_JOBS: 'off' });
  const db = await Database.open(':memory:', { readers: 1 });
  try {
    const to = Math.floor(Date.now() / 1000) * 1000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const checks: RecountCheck[] = [];
    const first = Date.UTC(2025, 0, 1);
    const daily = await api<{ time: string; volume_usd: number; fees_usd: number }[]>(`${server.url}/v1/alpha/volume/history?interval=1d&from=${iso(first)}&to=${iso(to)}`, key);
    checks.push({
      what: `GET /v1/alpha/volume/history?interval=1d (${daily.length} buckets)`,
      differences: bucketDifferences(toBuckets(daily), await recountVolume(db, dataDir, DAY_MS, first, to, null)),
    });
    const hourly = await api<{ time: string; volume_usd: number; fees_usd: number }[]>(
      `${server.url}/v1/alpha/volume/history?interval=1h&market=${MARKET}&from=${iso(to - 3 * DAY_MS - 123_000)}&to=${iso(to)}`,
      key,
    );
    checks.push({
      what: `GET /v1/alpha/volume/history?interval=1h&market=${MARKET}, last 3 days (${hourly.length} buckets)`,
      differences: bucketDifferences(toBuckets(hourly), await recountVolume(db, dataDir, 3_600_000, to - 3 * DAY_MS - 123_000, to, MARKET)),
    });
    for (const market of [null, MARKET]) {
      const served = await api<Stats>(`${server.url}/v1/alpha/open-positions/stats${market ? `?market=${market}` : ''}`, key);
      const recounted = await recountOpen(db, dataDir, market);
      checks.push({ what: `GET /v1/alpha/open-positions/stats${market ? `?market=${market}` : ''} (${recounted.total_positions} open)`, differences: statsDifferences(served, recounted) });
    }
    return checks;
  } finally {
    await db.close();
    await server.stop();
  }
}
