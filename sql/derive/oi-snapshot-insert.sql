-- Inserts, per market key and 5-minute bucket of the staged batch, the open interest of the
-- batch's last snapshot in that bucket (journal order breaks a tie on time). No parameters.
INSERT INTO oi_snapshot_5m
SELECT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket, time, oi_long_usd, oi_short_usd
FROM batch_msnap
QUALIFY row_number() OVER (PARTITION BY protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time)
                           ORDER BY time DESC, ord_commit DESC, ord_row DESC) = 1;
