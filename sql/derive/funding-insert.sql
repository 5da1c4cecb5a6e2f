-- Adds the staged batch's market snapshots to the hourly funding sums (count and exact decimal
-- sums of the served net rates per market key and hour), creating buckets as needed. Decimal
-- addition is associative, so any split of the journal into batches gives the same sums as a
-- rebuild. No parameters.
MERGE INTO funding_1h h
USING (
  SELECT protocol, market, market_variant, time_bucket(INTERVAL 1 HOUR, time) AS bucket, count(*) AS snapshots,
         sum(funding_rate_long::DECIMAL(38,20)) AS rate_long_sum, sum(funding_rate_short::DECIMAL(38,20)) AS rate_short_sum
  FROM batch_msnap GROUP BY ALL
) b
ON h.protocol = b.protocol AND h.market = b.market AND h.market_variant IS NOT DISTINCT FROM b.market_variant AND h.bucket = b.bucket
WHEN MATCHED THEN UPDATE SET snapshots = h.snapshots + b.snapshots, rate_long_sum = h.rate_long_sum + b.rate_long_sum,
                             rate_short_sum = h.rate_short_sum + b.rate_short_sum
WHEN NOT MATCHED THEN INSERT (protocol, market, market_variant, bucket, snapshots, rate_long_sum, rate_short_sum)
  VALUES (b.protocol, b.market, b.market_variant, b.bucket, b.snapshots, b.rate_long_sum, b.rate_short_sum);
