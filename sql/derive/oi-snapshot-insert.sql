-- Inserts, per market key and 5-minute bucket of the staged batch, the open interest of the
-- batch's last snapshot in that bucket (journal order breaks a tie on time). An aggregate, not a
-- window: one hash pass instead of a sort of every snapshot. No parameters.
INSERT INTO oi_snapshot_5m
SELECT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
       max(time), arg_max(oi_long_usd, (time, ord_commit, ord_row)), arg_max(oi_short_usd, (time, ord_commit, ord_row))
FROM batch_msnap
GROUP BY ALL
ORDER BY bucket;  -- time order, so zone maps on `bucket` prune window reads
