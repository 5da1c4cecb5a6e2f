-- Adds the staged batch's 5-minute price buckets that price_5m does not hold yet (the others were
-- merged by price-update.sql), in time order so zone maps on `bucket` prune window reads.
-- No parameters.
INSERT INTO price_5m
SELECT b.*
FROM batch_price b
WHERE NOT EXISTS (
  SELECT 1 FROM price_5m p
  WHERE p.bucket >= (SELECT min(bucket) FROM batch_price)
    AND p.protocol = b.protocol AND p.market = b.market AND p.src = b.src AND p.bucket = b.bucket)
ORDER BY b.bucket;
