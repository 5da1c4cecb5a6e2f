-- Recomputes the touched 5-minute fill buckets (job_touched_5m) from every fill in them, with
-- the aggregates of sql/derive/rollup-merge.sql (counts and exact decimal sums, so the result
-- equals what a rebuild computes): aggregate the fills of the touched span, keep touched buckets.
-- No parameters.
INSERT INTO rollup_5m
SELECT a.*
FROM (
  SELECT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
    count(*)::INTEGER AS fill_count,
    coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0) AS volume_usd,
    sum(fee_usd) AS fees_usd,
    coalesce(sum(size_delta_usd) FILTER (side = 'long'), 0) AS oi_long_delta_usd,
    coalesce(sum(size_delta_usd) FILTER (side = 'short'), 0) AS oi_short_delta_usd,
    (count(*) FILTER (type = 'liquidation'))::INTEGER AS liq_count,
    coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'long'), 0) AS liq_long_usd,
    coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'short'), 0) AS liq_short_usd,
    coalesce(sum(liquidation_fee_usd) FILTER (type = 'liquidation'), 0) AS liq_fees_usd
  FROM fills
  WHERE time >= (SELECT min(bucket) FROM job_touched_5m)
    AND time < (SELECT max(bucket) FROM job_touched_5m) + INTERVAL 5 MINUTE
  GROUP BY ALL
) a
SEMI JOIN job_touched_5m t
  ON a.protocol = t.protocol AND a.market = t.market AND a.market_variant IS NOT DISTINCT FROM t.market_variant AND a.bucket = t.bucket;
