-- The first and last day (epoch ms of midnight UTC) holding any 5-minute rollup or
-- snapshot-OI bucket, from the daily levels, for sizing the in-memory history mirror
-- (server/read/buckets/history-mirror.ts) of $protocol; NULLs when there is none.
-- Parameters: $protocol VARCHAR ('alpha' or 'beta').
SELECT min(d)::DOUBLE AS first_day, max(d)::DOUBLE AS last_day FROM (
  SELECT epoch_ms(bucket) AS d FROM rollup_1d WHERE protocol = $protocol::VARCHAR
  UNION ALL
  SELECT epoch_ms(bucket) FROM oi_snapshot_1d WHERE protocol = $protocol::VARCHAR
);
