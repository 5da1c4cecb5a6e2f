-- Drops the price_1d rows of the days (per protocol, market and source) that the staged batch's
-- 5-minute price buckets (batch_price) fall in; price-1d-insert.sql recomputes them next.
-- The lower bound lets zone maps skip older rows. No parameters.
DELETE FROM price_1d p
WHERE p.bucket >= (SELECT time_bucket(INTERVAL 1 DAY, min(bucket)) FROM batch_price)
  AND (p.protocol, p.market, p.src, p.bucket) IN (
    SELECT DISTINCT protocol, market, src, time_bucket(INTERVAL 1 DAY, bucket) FROM batch_price);
