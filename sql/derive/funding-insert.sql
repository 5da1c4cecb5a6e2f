-- Recomputes hourly funding sums for every (market key, hour) the staged batch touches: the
-- count of snapshots and the sums of their served net rates (ORDER BY time: bit-identical
-- rebuilds). History averages these. No parameters.
INSERT INTO funding_1h
SELECT s.protocol, s.market, s.market_variant, time_bucket(INTERVAL 1 HOUR, s.time) AS bucket,
       count(*), sum(funding_rate_long ORDER BY time), sum(funding_rate_short ORDER BY time)
FROM market_snapshots s
SEMI JOIN (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 1 HOUR, time) AS bucket
           FROM batch_msnap) b
  ON b.protocol = s.protocol AND b.market = s.market
 AND b.market_variant IS NOT DISTINCT FROM s.market_variant
 AND b.bucket = time_bucket(INTERVAL 1 HOUR, s.time)
WHERE s.time >= (SELECT time_bucket(INTERVAL 1 HOUR, min(time)) FROM batch_msnap)
GROUP BY ALL;
