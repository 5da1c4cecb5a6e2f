-- Drops the price_1h rows of the hours (per protocol, market and source) that the staged batch's
-- 5-minute price buckets (batch_price) fall in; price-1h-insert.sql recomputes them next.
-- The lower bound lets zone maps skip older rows. No parameters.
DELETE FROM price_1h p
WHERE p.bucket >= (SELECT time_bucket(INTERVAL 1 HOUR, min(bucket)) FROM batch_price)
  AND (p.protocol, p.market, p.src, p.bucket) IN (
    SELECT DISTINCT protocol, market, src, time_bucket(INTERVAL 1 HOUR, bucket) FROM batch_price);
