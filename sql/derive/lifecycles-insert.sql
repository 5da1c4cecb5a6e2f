-- Recomputes every lifecycle the staged batch touches from all of its fills (contract §6).
-- Sums first (one hash aggregate), then the first and last fill's attributes by joining on their
-- seq. Price averages use exact decimal sums (price as DECIMAL(38,12)), so results do not depend
-- on the order DuckDB's threads combine rows: a rebuild gives the same bits as incremental
-- updates. No parameters.
INSERT INTO lifecycles
WITH touched AS (
  SELECT position_id,
    min(seq) AS first_seq, max(seq) AS last_seq, count(*)::INTEGER AS fill_count,
    sum(size_delta_usd * price::DECIMAL(38,12)) FILTER (size_delta_usd > 0) AS up_notional,
    sum(size_delta_usd) FILTER (size_delta_usd > 0) AS up_size,
    sum(-size_delta_usd * price::DECIMAL(38,12)) FILTER (size_delta_usd < 0) AS down_notional,
    sum(-size_delta_usd) FILTER (size_delta_usd < 0) AS down_size,
    max(position_size_usd) AS max_size_usd, max(position_collateral_usd) AS max_collateral_usd,
    coalesce(max(position_size_usd::DOUBLE / position_collateral_usd::DOUBLE)
               FILTER (position_collateral_usd > 0 AND position_size_usd > 0), 0) AS max_leverage,
    coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0) AS volume_usd,
    sum(pnl_delta_usd) AS realized, sum(fee_usd) AS fees,
    coalesce(sum(liquidation_fee_usd), 0) AS liq_fees, coalesce(sum(funding_fee_usd), 0) AS funding_fees,
    coalesce(sum(borrowing_fee_usd), 0) AS borrowing_fees, coalesce(sum(funding_earned_usd), 0) AS earned
  FROM fills
  WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills)
  GROUP BY position_id
)
SELECT
  t.position_id, f.protocol, f.position_key, f.address, f.market, f.market_variant, f.side,
  CASE l.type WHEN 'close' THEN 'closed' WHEN 'liquidation' THEN 'liquidated' ELSE 'open' END,
  f.time,
  CASE WHEN l.type IN ('close', 'liquidation') THEN l.time END,
  l.time,
  f.tx,
  CASE WHEN l.type IN ('close', 'liquidation') THEN l.tx END,
  -- entry: size-weighted average of increase prices (the first fill's running entry if none)
  coalesce((t.up_notional / t.up_size)::DOUBLE, f.entry_price),
  -- exit: size-weighted average of decrease prices, once the lifecycle has ended
  CASE WHEN l.type IN ('close', 'liquidation') THEN (t.down_notional / t.down_size)::DOUBLE END,
  l.position_size_usd, l.position_collateral_usd, t.max_size_usd, t.max_collateral_usd, t.max_leverage,
  t.volume_usd, t.realized, t.fees, t.liq_fees, t.funding_fees, t.borrowing_fees, t.earned,
  t.realized - t.fees - t.borrowing_fees - t.funding_fees - t.liq_fees + t.earned,
  t.fill_count, t.first_seq, t.last_seq
FROM touched t
JOIN fills f ON f.seq = t.first_seq
JOIN fills l ON l.seq = t.last_seq
-- by address, so zone maps let an address's reads (endpoints 15, 18, 19) skip most row groups
ORDER BY f.address, t.position_id;
