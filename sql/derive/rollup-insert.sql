-- Recomputes the 5-minute fill rollup for every (market key, bucket) the staged batch touches.
-- volume: |size delta| of non-liquidation fills (collateral edits add 0); fees: trading fees of
-- all fills; OI deltas: signed size deltas per side (liquidations included, so OI nets to 0);
-- liquidations: count, notional by side, liquidation fees (contract §4). No parameters.
INSERT INTO rollup_5m
SELECT
  f.protocol, f.market, f.market_variant, time_bucket(INTERVAL 5 MINUTE, f.time) AS bucket,
  count(*),
  coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0),
  sum(fee_usd),
  coalesce(sum(size_delta_usd) FILTER (side = 'long'), 0),
  coalesce(sum(size_delta_usd) FILTER (side = 'short'), 0),
  count(*) FILTER (type = 'liquidation'),
  coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'long'), 0),
  coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'short'), 0),
  coalesce(sum(liquidation_fee_usd) FILTER (type = 'liquidation'), 0)
FROM fills f
SEMI JOIN (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket
           FROM batch_fills) b
  ON b.protocol = f.protocol AND b.market = f.market
 AND b.market_variant IS NOT DISTINCT FROM f.market_variant
 AND b.bucket = time_bucket(INTERVAL 5 MINUTE, f.time)
WHERE f.time >= (SELECT time_bucket(INTERVAL 5 MINUTE, min(time)) FROM batch_fills)
GROUP BY ALL;
