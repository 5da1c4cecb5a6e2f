-- Recomputes the touched 5-minute snapshot-OI buckets from every market snapshot in them
-- (job_msnap): the last one in journal order, as sql/derive/oi-snapshot-insert.sql. No parameters.
INSERT INTO oi_snapshot_5m
SELECT m.protocol, m.market, m.market_variant, t.bucket,
       max(m.time), arg_max(m.oi_long_usd, (m.time, m.ord_commit, m.ord_row)), arg_max(m.oi_short_usd, (m.time, m.ord_commit, m.ord_row))
FROM job_msnap m
JOIN (SELECT DISTINCT protocol, market, market_variant, bucket FROM job_touched_msnap) t
  ON m.protocol = t.protocol AND m.market = t.market AND m.market_variant IS NOT DISTINCT FROM t.market_variant
 AND time_bucket(INTERVAL 5 MINUTE, m.time) = t.bucket
GROUP BY m.protocol, m.market, m.market_variant, t.bucket;
