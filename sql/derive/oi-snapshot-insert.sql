-- Recomputes, for every (market key, 5-minute bucket) the staged batch touches, the open
-- interest of the bucket's last market snapshot (ties on time, which a source should never
-- produce, resolve on the values so the answer stays deterministic). No parameters.
INSERT INTO oi_snapshot_5m
SELECT protocol, market, market_variant, bucket, time, oi_long_usd, oi_short_usd
FROM (
  SELECT s.*, time_bucket(INTERVAL 5 MINUTE, s.time) AS bucket
  FROM market_snapshots s
  WHERE s.time >= (SELECT time_bucket(INTERVAL 5 MINUTE, min(time)) FROM batch_msnap)
) s
SEMI JOIN (SELECT DISTINCT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket
           FROM batch_msnap) b
  ON b.protocol = s.protocol AND b.market = s.market
 AND b.market_variant IS NOT DISTINCT FROM s.market_variant AND b.bucket = s.bucket
QUALIFY row_number() OVER (PARTITION BY protocol, market, market_variant, bucket ORDER BY time DESC, oi_long_usd DESC, oi_short_usd DESC) = 1;
