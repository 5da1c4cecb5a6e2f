-- Recomputes the touched 5-minute fill buckets (job_touched_5m) from every fill in them, with
-- the aggregates of sql/derive/rollup-merge.sql (counts and exact decimal sums, so the result
-- equals what a rebuild computes). No parameters.
INSERT INTO rollup_5m
SELECT f.protocol, f.market, f.market_variant, t.bucket,
  count(*)::INTEGER AS fill_count,
  coalesce(sum(abs(f.size_delta_usd)) FILTER (f.type <> 'liquidation'), 0) AS volume_usd,
  sum(f.fee_usd) AS fees_usd,
  coalesce(sum(f.size_delta_usd) FILTER (f.side = 'long'), 0) AS oi_long_delta_usd,
  coalesce(sum(f.size_delta_usd) FILTER (f.side = 'short'), 0) AS oi_short_delta_usd,
  (count(*) FILTER (f.type = 'liquidation'))::INTEGER AS liq_count,
  coalesce(sum(-f.size_delta_usd) FILTER (f.type = 'liquidation' AND f.side = 'long'), 0) AS liq_long_usd,
  coalesce(sum(-f.size_delta_usd) FILTER (f.type = 'liquidation' AND f.side = 'short'), 0) AS liq_short_usd,
  coalesce(sum(f.liquidation_fee_usd) FILTER (f.type = 'liquidation'), 0) AS liq_fees_usd
FROM fills f
JOIN job_touched_5m t
  ON f.protocol = t.protocol AND f.market = t.market AND f.market_variant IS NOT DISTINCT FROM t.market_variant
 AND time_bucket(INTERVAL 5 MINUTE, f.time) = t.bucket
WHERE f.time >= (SELECT min(bucket) FROM job_touched_5m)
GROUP BY f.protocol, f.market, f.market_variant, t.bucket;
