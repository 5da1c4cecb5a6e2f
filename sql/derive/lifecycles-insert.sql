-- Recomputes every lifecycle the staged batch touches from all of its fills (contract §6).
-- Price averages are computed with exact decimal sums (price as DECIMAL(38,12)), so the result
-- does not depend on the order DuckDB's threads combine rows: a rebuild gives the same bits as
-- incremental updates. No parameters.
INSERT INTO lifecycles
SELECT
  position_id,
  arg_min(protocol, seq), arg_min(position_key, seq), arg_min(address, seq), arg_min(market, seq),
  arg_min(market_variant, seq), arg_min(side, seq),
  CASE arg_max(type, seq) WHEN 'close' THEN 'closed' WHEN 'liquidation' THEN 'liquidated' ELSE 'open' END,
  min(time),
  CASE WHEN arg_max(type, seq) IN ('close', 'liquidation') THEN max(time) END,
  max(time),
  arg_min(tx, seq),
  CASE WHEN arg_max(type, seq) IN ('close', 'liquidation') THEN arg_max(tx, seq) END,
  -- entry: size-weighted average of increase prices (first fill's running entry if none)
  coalesce((sum(size_delta_usd * price::DECIMAL(38,12)) FILTER (size_delta_usd > 0)
             / sum(size_delta_usd) FILTER (size_delta_usd > 0))::DOUBLE,
           arg_min(entry_price, seq)),
  -- exit: size-weighted average of decrease prices, once the lifecycle has ended
  CASE WHEN arg_max(type, seq) IN ('close', 'liquidation') THEN
    (sum(-size_delta_usd * price::DECIMAL(38,12)) FILTER (size_delta_usd < 0)
      / sum(-size_delta_usd) FILTER (size_delta_usd < 0))::DOUBLE END,
  arg_max(position_size_usd, seq),
  arg_max(position_collateral_usd, seq),
  max(position_size_usd),
  max(position_collateral_usd),
  coalesce(max(position_size_usd::DOUBLE / position_collateral_usd::DOUBLE)
             FILTER (position_collateral_usd > 0 AND position_size_usd > 0), 0),
  coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0),
  sum(pnl_delta_usd),
  sum(fee_usd),
  coalesce(sum(liquidation_fee_usd), 0),
  coalesce(sum(funding_fee_usd), 0),
  coalesce(sum(borrowing_fee_usd), 0),
  coalesce(sum(funding_earned_usd), 0),
  sum(pnl_delta_usd) - sum(fee_usd) - coalesce(sum(borrowing_fee_usd), 0) - coalesce(sum(funding_fee_usd), 0)
    - coalesce(sum(liquidation_fee_usd), 0) + coalesce(sum(funding_earned_usd), 0),
  count(*),
  min(seq),
  max(seq)
FROM fills
WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills)
GROUP BY position_id;
