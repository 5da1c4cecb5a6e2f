-- Recomputes the touched 5-minute snapshot-OI buckets from every market snapshot in them
-- (job_msnap): the last one in journal order, as sql/derive/oi-snapshot-insert.sql. No parameters.
INSERT INTO oi_snapshot_5m
SELECT a.*
FROM (
  SELECT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
         max(time), arg_max(oi_long_usd, (time, ord_commit, ord_row)), arg_max(oi_short_usd, (time, ord_commit, ord_row))
  FROM job_msnap
  GROUP BY ALL
) a
SEMI JOIN job_touched_msnap t
  ON a.protocol = t.protocol AND a.market = t.market AND a.market_variant IS NOT DISTINCT FROM t.market_variant AND a.bucket = t.bucket;
