import { existsSync } from 'node:fs';
import { sqlFingerprint } from '../server/db/sql-fingerprint.ts';
import { sqlFile } from '../server/db/sql-files.ts';
import type { IncomingPositionSnapshot, Protocol } from '../server/journal/rows.ts';
import { log } from '../server/lib/log.ts';
import type { Service } from '../server/service.ts';
import { ALPHA, BETA } from '../server/sources/simulate/markets.ts';
import { dataPartitions, withFiles } from './journal-files.ts';

/** A market snapshot this much older than a base point cannot give its settlement factors. */
const MAX_GAP_MS = 60_000;

export interface PositionRefreshResult {
  /** poll snapshots handed to the append path (it drops any that a fill landing meanwhile superseded) */
  marked: number;
  /** open positions that could not be re-marked: no market snapshot near their last fill or snapshot */
  skipped: number;
}

/**
 * The protocol constants the liquidation condition uses (shared/design/protocols.md). They live
 * with the simulator's other protocol constants (server/sources/simulate/markets.ts), which is
 * the one place they are written down; the refresh itself reads only the journal's data.
 */
const PROTOCOL_PARAMS = {
  alpha_fee_improve: ALPHA.orderFeeImprove,
  alpha_fee_worsen: ALPHA.orderFeeWorsen,
  alpha_min_factor: ALPHA.minCollateralFactorForLiquidation,
  alpha_min_usd: ALPHA.minCollateralUsd,
  beta_base_fee: BETA.baseFee,
  beta_impact_scalar: BETA.impactFeeScalarUsd,
  beta_max_leverage: BETA.maxLeverage,
};

/** Times the refresh lists the files again when one it listed was replaced meanwhile. */
const RELISTS = 3;

/**
 * Runs sql/jobs/position-refresh.sql over the market-snapshot files of `days`. It reads them on a
 * reader connection, outside the writer lock, so the compaction job may replace files it listed
 * (hourly, for today's); it then lists them again, rather than fail the run.
 */
async function readMarketSnapshots(service: Service, days: ReadonlySet<string>): Promise<Record<string, unknown>[]> {
  for (let attempt = 1; ; attempt++) {
    const files = dataPartitions(service.dataDir, 'market_snapshots', days).flatMap((p) => p.files.map((f) => f.path));
    if (files.length === 0) return [];
    try {
      return await service.db.querySql(withFiles(sqlFile('jobs/position-refresh'), files), { max_gap_ms: MAX_GAP_MS, ...PROTOCOL_PARAMS });
    } catch (err) {
      if (attempt > RELISTS || files.every((f) => existsSync(f))) throw err;
      log.debug(`position refresh: a market-snapshot file was replaced during the read; listing again (${(err as Error).message})`);
    }
  }
}

/** Computes the `poll` snapshots of a full refresh (see sql/jobs/position-refresh.sql) without appending them. */
export async function computeRefresh(service: Service): Promise<{ rows: IncomingPositionSnapshot[]; skipped: number }> {
  const days = new Set((await service.db.query('jobs/position-refresh-days')).map((r) => r.day as string));
  const result = await readMarketSnapshots(service, days);
  const rows: IncomingPositionSnapshot[] = [];
  let skipped = 0;
  for (const r of result) {
    if (r.base === null) {
      skipped++;
      continue;
    }
    rows.push({
      time: Date.parse(r.time as string),
      protocol: r.protocol as Protocol,
      position_key: r.position_key as string,
      size_usd: Number(r.size_usd),
      collateral_usd: Number(r.collateral_usd),
      unsettled_borrowing_usd: Number(r.unsettled_borrowing_usd),
      unsettled_funding_usd: Number(r.unsettled_funding_usd),
      claimable_funding_usd: Number(r.claimable_funding_usd),
      mark_price: Number(r.mark_price),
      liquidation_price: r.liquidation_price === null ? null : Number(r.liquidation_price),
      source: 'poll',
    });
  }
  return { rows, skipped };
}

/**
 * The derived state's position (journal commit and seq) that the last refresh found nothing to
 * re-mark at, with the open positions it could not re-mark. The refresh reads only the derived
 * state and the journal's market snapshots, both fixed by that position, so while it stays the same
 * a refresh would compute the same empty result again (on the bench journal: ~1.9 s of DuckDB work,
 * every 5 minutes of an idle server). Kept in the derived state's `meta` (key
 * `position_refresh_settled`, read with the position itself), so a restarted server does not
 * compute it once more either: every bench run starts a server, and its first refresh took ~2-3
 * CPU-s of both cores beside whatever the bench was measuring. The stored value names the
 * refresh's own version (its SQL and the protocol constants): a release that computes differently
 * computes again. This is that version: the refresh's SQL and constants, fingerprinted.
 */
const REFRESH_VERSION = sqlFingerprint([sqlFile('jobs/position-refresh'), JSON.stringify(PROTOCOL_PARAMS), String(MAX_GAP_MS)]);

/** The derived state's position, as one comparable string, and the settled value stored with it (on a reader: no wait behind an append). */
async function derivedMark(service: Service): Promise<{ mark: string; stored: string | null }> {
  const row = (await service.db.queryOne('jobs/position-refresh-mark'))!;
  return { mark: row.mark as string, stored: (row.settled as string | null) ?? null };
}

/** The stored form of "nothing to re-mark at `mark`, `skipped` not re-markable". */
function settledValue(mark: string, skipped: number): string {
  return `${mark}|${REFRESH_VERSION}|${skipped}`;
}

/** What `stored` says was skipped at `mark`, or undefined when it is about another position or version. */
function storedSkipped(stored: string | null, mark: string): number | undefined {
  const prefix = `${mark}|${REFRESH_VERSION}|`;
  return stored?.startsWith(prefix) ? Number(stored.slice(prefix.length)) : undefined;
}

/**
 * Full position refresh: re-marks every open position at the latest market state and appends
 * the result as `poll` position snapshots through the one append path (a snapshots-only batch).
 * Computed on a reader connection while appends go on: a fill that lands meanwhile has a newer
 * event snapshot, so the append path drops the stale poll row (or a later read supersedes it).
 * Nothing appended since a refresh that found nothing to re-mark: nothing is computed.
 */
export async function refreshPositions(service: Service): Promise<PositionRefreshResult> {
  const { mark, stored } = await derivedMark(service);
  const known = storedSkipped(stored, mark);
  if (known !== undefined) {
    log.debug(`position refresh: nothing appended since the last refresh (${mark}); nothing to re-mark`);
    return { marked: 0, skipped: known };
  }
  const { rows, skipped } = await computeRefresh(service);
  if (skipped) log.warn(`position refresh: ${skipped} open positions have no market snapshot near their last fill or snapshot; not re-marked`);
  // the result held at `mark` (read before the computation); after an append of ours it no longer
  // does, and the next run computes again to find that out (marks only grow: an older entry never
  // matches again)
  if (rows.length === 0) {
    // one small write per position: the derived state's own changes reach its file with the next checkpoint
    await service.db.write((w) => w.run('derive/meta-set', { key: 'position_refresh_settled', value: settledValue(mark, skipped) }));
    return { marked: 0, skipped };
  }
  await service.append({ fills: [], marketSnapshots: [], positionSnapshots: rows });
  log.info(`position refresh: ${rows.length} open positions re-marked`);
  return { marked: rows.length, skipped };
}
