-- Full position refresh: re-marks every open lifecycle (both protocols) at its market's latest
-- snapshot, as a `poll` position snapshot stamped with that snapshot's time. Positions with a
-- fill after that time (their event snapshot is newer) or already marked at or after it are left
-- out. Computed from the derived state and the journal's market snapshots (spliced-in file list of
-- the days given by position-refresh-days.sql), the way the protocols account (protocols.md):
--  * unsettled borrowing / funding paid / claimable funding = what a base point carried + size ×
--    (cumulative factor now − cumulative factor at the base point), per side. The base point is
--    the last fill (every fill settles everything: amounts 0 there) when a market snapshot of at
--    most $max_gap_ms before it gives the factors it settled against, else the latest position
--    snapshot (when not older than the last fill) with such a market snapshot; else no row
--    (base = NULL: the job counts and skips it).
--  * collateral: USD, or for alpha collateral held in the index token (WSOL on SOL markets) the
--    token amount at the base point revalued at the mark price.
--  * liquidation price: the price where the liquidation condition starts to hold with the fees
--    due now (close fee at the current OI balance + pending borrowing + pending funding); alpha:
--    collateral + PnL − fees < max(size × min collateral factor, min USD); beta: loss + fees >
--    collateral − size / max leverage. NULL when price alone cannot trigger it. The entry in it
--    is the position's own (the last fill's position_entry_price, weighted by the size held),
--    not the served entry_price (the lifecycle's increase average): the two differ once a
--    decrease is followed by an increase. Where a source could not give the own entry (null:
--    files written before the column, beta increases on the solana source), the served one.
-- Parameters: $max_gap_ms BIGINT, $alpha_fee_improve, $alpha_fee_worsen, $alpha_min_factor,
-- $alpha_min_usd, $beta_base_fee, $beta_impact_scalar, $beta_max_leverage (DOUBLE).
WITH cand AS (
  SELECT l.position_id, l.protocol, l.position_key, l.market, coalesce(l.market_variant, '') AS vkey, l.side = 'long' AS is_long,
         l.last_fill_at, l.size_usd, l.size_usd::DOUBLE AS s,
         f.position_collateral_usd::DOUBLE AS fill_coll, f.index_price AS fill_price,
         coalesce(f.position_entry_price, f.entry_price) AS e,
         l.protocol = 'alpha' AND f.collateral_token IN (split_part(l.market, '-', 1), 'W' || split_part(l.market, '-', 1)) AS token_coll,
         p.time AS p_time, coalesce(p.time >= l.last_fill_at, false) AS p_fresh, p.collateral_usd::DOUBLE AS p_coll, p.mark_price AS p_mark,
         p.unsettled_borrowing_usd::DOUBLE AS p_b, p.unsettled_funding_usd::DOUBLE AS p_f, p.claimable_funding_usd::DOUBLE AS p_e,
         m.time AS m_time, m.index_price AS m_price,
         (m.oi_long_usd - m.oi_short_usd) AS x0,
         CASE WHEN l.side = 'long' THEN m.cum_borrowing_long ELSE m.cum_borrowing_short END AS cb,
         CASE WHEN l.side = 'long' THEN m.cum_funding_paid_long ELSE m.cum_funding_paid_short END AS cf,
         CASE WHEN l.side = 'long' THEN m.cum_funding_earned_long ELSE m.cum_funding_earned_short END AS ce
  FROM lifecycles l
  JOIN fills f ON f.seq = l.last_seq
  JOIN market_latest m ON m.protocol = l.protocol AND m.market = l.market AND m.market_variant IS NOT DISTINCT FROM l.market_variant
  LEFT JOIN position_latest p ON p.position_id = l.position_id
  WHERE l.status = 'open' AND l.size_usd > 0
    AND m.time >= l.last_fill_at
    AND (p.time IS NULL OR p.time < m.time)
),
snaps AS (
  SELECT protocol, market, coalesce(market_variant, '') AS vkey, time,
         cum_borrowing_long, cum_borrowing_short, cum_funding_paid_long, cum_funding_paid_short,
         cum_funding_earned_long, cum_funding_earned_short
  FROM read_parquet(__FILES__, hive_partitioning = true, union_by_name = true) -- files of different ages differ in columns
),
at_fill AS (
  SELECT c.*, s.time AS sf_time,
         CASE WHEN c.is_long THEN s.cum_borrowing_long ELSE s.cum_borrowing_short END AS fb,
         CASE WHEN c.is_long THEN s.cum_funding_paid_long ELSE s.cum_funding_paid_short END AS ff,
         CASE WHEN c.is_long THEN s.cum_funding_earned_long ELSE s.cum_funding_earned_short END AS fe
  FROM cand c ASOF LEFT JOIN snaps s
    ON s.protocol = c.protocol AND s.market = c.market AND s.vkey = c.vkey AND c.last_fill_at >= s.time
),
at_both AS (
  SELECT a.*, s.time AS sp_time,
         CASE WHEN a.is_long THEN s.cum_borrowing_long ELSE s.cum_borrowing_short END AS pb,
         CASE WHEN a.is_long THEN s.cum_funding_paid_long ELSE s.cum_funding_paid_short END AS pf,
         CASE WHEN a.is_long THEN s.cum_funding_earned_long ELSE s.cum_funding_earned_short END AS pe
  FROM at_fill a ASOF LEFT JOIN snaps s
    ON s.protocol = a.protocol AND s.market = a.market AND s.vkey = a.vkey AND a.p_time >= s.time
),
based AS (
  SELECT *,
    CASE WHEN sf_time IS NOT NULL AND epoch_ms(last_fill_at) - epoch_ms(sf_time) < $max_gap_ms THEN 'fill'
         WHEN p_fresh AND sp_time IS NOT NULL AND epoch_ms(p_time) - epoch_ms(sp_time) < $max_gap_ms THEN 'position'
    END AS base
  FROM at_both
),
pending AS (
  SELECT *,
    CASE base WHEN 'fill' THEN s * (cb - fb) ELSE p_b + s * (cb - pb) END AS pend_b,
    CASE base WHEN 'fill' THEN s * (cf - ff) ELSE p_f + s * (cf - pf) END AS pend_f,
    CASE base WHEN 'fill' THEN s * (ce - fe) ELSE p_e + s * (ce - pe) END AS pend_e,
    -- collateral amount: tokens for index-token collateral, else USD
    CASE WHEN token_coll THEN (CASE base WHEN 'fill' THEN fill_coll / fill_price ELSE p_coll / p_mark END)
         ELSE (CASE base WHEN 'fill' THEN fill_coll ELSE p_coll END) END AS q
  FROM based
),
fees AS (
  SELECT *,
    CASE WHEN protocol = 'alpha'
         THEN s * (CASE WHEN abs(x0 - CASE WHEN is_long THEN size_usd ELSE -size_usd END) < abs(x0) THEN $alpha_fee_improve ELSE $alpha_fee_worsen END)
              + pend_b + pend_f
         ELSE (s * $beta_base_fee + (s * s) / $beta_impact_scalar) + pend_b + pend_f END AS due,
    greatest(s * $alpha_min_factor, $alpha_min_usd) AS thr
  FROM pending
),
liq AS (
  SELECT *,
    CASE
      WHEN protocol = 'alpha' AND is_long AND token_coll THEN (s + thr + due) / (q + s / e)
      WHEN protocol = 'alpha' AND is_long THEN (e * (s + thr + due - q)) / s
      WHEN protocol = 'alpha' AND NOT token_coll THEN (e * (s + q - thr - due)) / s
      WHEN protocol = 'alpha' THEN CASE WHEN s / e - q > 0 THEN (s - thr - due) / (s / e - q) END
      WHEN q - s / $beta_max_leverage - due <= 0 THEN NULL
      WHEN is_long THEN e * (1 - (q - s / $beta_max_leverage - due) / s)
      ELSE e * (1 + (q - s / $beta_max_leverage - due) / s)
    END AS liq_raw
  FROM fees
)
SELECT position_id, protocol, position_key, base, m_time AS time,
       size_usd::DOUBLE AS size_usd,
       CASE WHEN token_coll THEN round(q * m_price, 6) ELSE q END AS collateral_usd,
       round(pend_b, 6) AS unsettled_borrowing_usd,
       round(pend_f, 6) AS unsettled_funding_usd,
       round(pend_e, 6) AS claimable_funding_usd,
       m_price AS mark_price,
       CASE WHEN liq_raw > 0 THEN liq_raw END AS liquidation_price
FROM liq
ORDER BY protocol, position_id;
