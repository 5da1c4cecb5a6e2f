import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildState } from '../../../server/derive/rebuild.ts';
import { openService, statePath, type Service } from '../../../server/service.ts';
import { ALPHA, BETA } from '../../../server/sources/simulate/markets.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { simulateUntil } from '../../../server/sources/simulate/source.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';
import { diffStates } from '../../helpers/state-diff.ts';

/**
 * Invariants of a simulated journal that went through the real append path in many small
 * batches (so the incremental path is exercised): 45 days, market snapshots from day 15 on.
 */
const START = Date.UTC(2026, 3, 1);
const SNAPSHOTS_FROM = Date.UTC(2026, 3, 16);
const UNTIL = Date.UTC(2026, 4, 16);
const { dir, cleanup } = tempDataDir();
let service: Service;

beforeAll(async () => {
  service = await openService({ dataDir: dir });
  const sim = new Simulator({ seed: 7, start: START, snapshotsFrom: SNAPSHOTS_FROM });
  await simulateUntil(service, sim, { seed: 7, scale: 1 }, UNTIL, { rowsPerAppend: 20_000 }); // many small appends
}, 120_000);
afterAll(async () => {
  await service.close();
  cleanup();
});

const q = (sql: string) => service.db.querySql(sql);

describe('simulated journal through the append path', () => {
  it('has a gap-free seq and unique (protocol, tx, event_index)', async () => {
    const [r] = await q(`SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi,
      count(DISTINCT (protocol, tx, event_index)) AS keys FROM fills`);
    expect(r!.n).toBeGreaterThan(40 * 2 * 500);
    expect(r).toMatchObject({ lo: 1, hi: r!.n, keys: r!.n });
  });

  it('every lifecycle opens first, ends last, chains sizes, and nets to zero size when ended', async () => {
    const [r] = await q(`
      WITH f AS (
        SELECT *, row_number() OVER w AS k, count(*) OVER (PARTITION BY position_id) AS n,
               lag(position_size_usd, 1, 0) OVER w AS before
        FROM fills WINDOW w AS (PARTITION BY position_id ORDER BY seq))
      SELECT
        count(*) FILTER (k = 1 AND type <> 'open') AS first_not_open,
        count(*) FILTER (k > 1 AND type = 'open') AS open_later,
        count(*) FILTER (type IN ('close', 'liquidation') AND k <> n) AS terminal_not_last,
        count(*) FILTER (before + size_delta_usd <> position_size_usd) AS broken_chain
      FROM f`);
    expect(r).toEqual({ first_not_open: 0, open_later: 0, terminal_not_last: 0, broken_chain: 0 });
    const [z] = await q(`SELECT count(*) AS bad FROM (
      SELECT position_id FROM fills GROUP BY ALL
      HAVING arg_max(type, seq) IN ('close', 'liquidation') AND sum(size_delta_usd) <> 0)`);
    expect(z!.bad).toBe(0);
  });

  it('open interest replayed from fills equals open interest in the market snapshots', async () => {
    // Each journaled snapshot against the running sum of size deltas of the fills at or before
    // its time (ASOF join), per market key and side.
    const glob = join(dir, 'journal', 'market_snapshots', '**', '*.parquet');
    const [r] = await q(`
      WITH f AS (
        SELECT protocol, market, coalesce(market_variant, '') AS v, time,
               sum(CASE WHEN side = 'long' THEN size_delta_usd ELSE 0 END) OVER w AS long_usd,
               sum(CASE WHEN side = 'short' THEN size_delta_usd ELSE 0 END) OVER w AS short_usd
        FROM fills WINDOW w AS (PARTITION BY protocol, market, market_variant ORDER BY seq)
        QUALIFY row_number() OVER (PARTITION BY protocol, market, market_variant, time ORDER BY seq DESC) = 1),
      s AS (SELECT protocol, market, coalesce(market_variant, '') AS v, time, oi_long_usd, oi_short_usd
            FROM read_parquet('${glob}', hive_partitioning = true))
      SELECT count(*) AS compared,
             count(*) FILTER (abs(coalesce(f.long_usd, 0) - s.oi_long_usd) > 0.000001
                           OR abs(coalesce(f.short_usd, 0) - s.oi_short_usd) > 0.000001) AS mismatched
      FROM s ASOF LEFT JOIN f ON f.protocol = s.protocol AND f.market = s.market AND f.v = s.v AND f.time <= s.time`);
    expect(r!.compared).toBeGreaterThan(100_000);
    expect(r!.mismatched).toBe(0);
  });

  it('journals market snapshots only from snapshotsFrom on, every minute for every market', async () => {
    const glob = join(dir, 'journal', 'market_snapshots', '**', '*.parquet');
    const [r] = await q(`SELECT min(time) AS first, count(DISTINCT (protocol, market, market_variant)) AS markets,
      count(*) AS n, count(DISTINCT (protocol, market, market_variant, time)) AS distinct_rows
      FROM read_parquet('${glob}', hive_partitioning = true)`);
    expect(r!.first).toBe(new Date(SNAPSHOTS_FROM).toISOString());
    expect(r!.markets).toBe(11);
    expect(r!.n).toBe(11 * ((UNTIL - SNAPSHOTS_FROM) / 60_000));
    expect(r!.distinct_rows).toBe(r!.n);
  });

  it('Σ account volume equals protocol volume, and account PnL equals lifecycle PnL', async () => {
    const [r] = await q(`SELECT
      (SELECT sum(volume_usd) FROM accounts) AS accounts_volume,
      (SELECT sum(volume_usd) FROM rollup_5m) AS protocol_volume,
      (SELECT sum(net_pnl_usd) FROM accounts) AS accounts_pnl,
      (SELECT sum(net_pnl_usd) FROM lifecycles) AS lifecycles_pnl`);
    expect(r!.accounts_volume).toBe(r!.protocol_volume);
    expect(r!.accounts_pnl).toBe(r!.lifecycles_pnl);
  });

  it('liquidates only positions whose equity was below the maintenance threshold', async () => {
    // From the journal alone: equity at the liquidation = collateral before it (WSOL collateral
    // revalued from the previous fill's price to the liquidation's) + realized PnL − closing fee −
    // settled borrowing and funding (funding earned is paid out, not collateral). Alpha liquidates
    // below max(min collateral factor × size, $1); beta below size / max leverage. A late keeper
    // only lowers equity, so the check is one-sided; 0.1 % of size absorbs rounding.
    const [r] = await q(`
      WITH f AS (
        SELECT *, lag(position_collateral_usd) OVER w AS coll_before, lag(index_price) OVER w AS price_before
        FROM fills WINDOW w AS (PARTITION BY position_id ORDER BY seq))
      SELECT count(*) AS liquidations, count(DISTINCT protocol) AS protocols,
             count(*) FILTER (equity > threshold + 0.001 * size) AS early
      FROM (
        SELECT protocol, -size_delta_usd AS size,
               CASE WHEN protocol = 'alpha' AND collateral_token = 'WSOL' THEN coll_before / price_before * index_price
                    ELSE coll_before END
                 + pnl_delta_usd - fee_usd - coalesce(borrowing_fee_usd, 0) - coalesce(funding_fee_usd, 0) AS equity,
               CASE protocol WHEN 'alpha' THEN greatest(${ALPHA.minCollateralFactorForLiquidation} * -size_delta_usd, ${ALPHA.minCollateralUsd})
                             ELSE -size_delta_usd / ${BETA.maxLeverage} END AS threshold
        FROM f WHERE type = 'liquidation')`);
    expect(r!.liquidations).toBeGreaterThan(10);
    expect(r!.protocols).toBe(2);
    expect(r!.early).toBe(0);
  });

  it('every lifecycle equals the aggregate of all its fills, over many appends', async () => {
    // The derive steps recompute a lifecycle per batch from the batch and what came before it
    // (open_lifecycles for its first fill); here every lifecycle is recomputed from `fills` at
    // once, by other SQL (an independent oracle), and must match exactly.
    const [r] = await q(`
      WITH i AS (
        -- size in micro-USD and price in 10^-12 as integers, by exact decimal rescales (not the
        -- derive step's integer arithmetic, which must give the same integers)
        SELECT *, (size_delta_usd::DECIMAL(38,6) * 1000000)::HUGEINT AS micro,
               (price::DECIMAL(38,12) * 1000000000000)::HUGEINT AS pico
        FROM fills),
      s AS (
        SELECT position_id, min(seq) AS first_seq, max(seq) AS last_seq, count(*) AS fill_count,
          arg_min(time, seq) AS opened_at, arg_min(tx, seq) AS open_tx, arg_max(type, seq) AS last_type,
          sum(micro * pico) FILTER (micro > 0) AS up_n, sum(micro) FILTER (micro > 0) AS up_m,
          sum(-micro * pico) FILTER (micro < 0) AS down_n, sum(-micro) FILTER (micro < 0) AS down_m,
          arg_min(entry_price, seq) AS first_entry,
          max(position_size_usd) AS max_size_usd, max(position_collateral_usd) AS max_collateral_usd,
          coalesce(max(position_size_usd::DOUBLE / position_collateral_usd::DOUBLE)
                     FILTER (position_collateral_usd > 0 AND position_size_usd > 0), 0) AS max_leverage,
          coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0) AS volume_usd,
          sum(pnl_delta_usd) AS realized, sum(fee_usd) AS fees, coalesce(sum(funding_earned_usd), 0) AS earned
        FROM i GROUP BY position_id),
      -- the averages as the derive step takes them: q + (N - q·M) / M with q = floor(N / M)
      a AS (
        SELECT *,
          coalesce((floor(up_n::DOUBLE / up_m::DOUBLE) + (up_n - floor(up_n::DOUBLE / up_m::DOUBLE)::HUGEINT * up_m)::DOUBLE / up_m::DOUBLE) / 1e12,
                   first_entry) AS entry_price,
          (floor(down_n::DOUBLE / down_m::DOUBLE) + (down_n - floor(down_n::DOUBLE / down_m::DOUBLE)::HUGEINT * down_m)::DOUBLE / down_m::DOUBLE) / 1e12 AS exit_price
        FROM s)
      SELECT count(*) AS lifecycles,
        count(*) FILTER (l.last_fill_at - l.opened_at > INTERVAL 7 DAY) AS spanning,  -- over many appends
        count(*) FILTER (
          l.first_seq <> a.first_seq OR l.last_seq <> a.last_seq OR l.fill_count <> a.fill_count
          OR l.opened_at <> a.opened_at OR l.open_tx <> a.open_tx
          OR l.entry_price <> a.entry_price
          OR l.exit_price IS DISTINCT FROM CASE WHEN a.last_type IN ('close', 'liquidation') THEN a.exit_price END
          OR l.max_size_usd <> a.max_size_usd OR l.max_collateral_usd <> a.max_collateral_usd
          OR l.max_leverage <> a.max_leverage OR l.volume_usd <> a.volume_usd
          OR l.realized_pnl_usd <> a.realized OR l.fees_usd <> a.fees OR l.funding_earned_usd <> a.earned) AS mismatched
      FROM lifecycles l JOIN a USING (position_id)`);
    expect(r!.lifecycles).toBeGreaterThan(1000);
    expect(r!.spanning).toBeGreaterThan(100);
    expect(r!.mismatched).toBe(0);
  });

  it('incrementally maintained state equals a full rebuild from the journal', async () => {
    const rebuilt = join(dir, 'rebuilt.duckdb');
    await service.db.checkpoint(); // diffStates reads the file: no WAL, so what a checkpoint wrote
    await rebuildState(dir, rebuilt);
    const diff = await diffStates(statePath(dir), rebuilt);
    for (const [table, d] of Object.entries(diff)) {
      expect({ table, onlyA: d.onlyA, onlyB: d.onlyB, same: d.rows === d.otherRows }).toEqual({ table, onlyA: 0, onlyB: 0, same: true });
    }
  });
});
