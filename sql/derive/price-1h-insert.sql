-- Recomputes, from price_5m (already merged with the batch), the price_1h rows of the hours
-- (per protocol, market and source) that the staged batch's 5-minute price buckets (batch_price)
-- fall in: the first / last row by its observation keys gives open and its keys / close and its
-- keys, high / low the extremes, observations add up; the keys are unique, so the result does not
-- depend on how observations were batched. Time order, so zone maps on `bucket` prune window reads.
-- No parameters.
INSERT INTO price_1h
SELECT p.protocol, p.market, p.src, time_bucket(INTERVAL 1 HOUR, p.bucket) AS bucket,
       arg_min(p.open, (p.first_us, p.first_k, p.first_seq)) AS open,
       max(p.high) AS high,
       min(p.low) AS low,
       arg_max(p.close, (p.last_us, p.last_k, p.last_seq)) AS close,
       sum(p.observations)::INTEGER AS observations,
       min(p.first_us) AS first_us,
       arg_min(p.first_k, (p.first_us, p.first_k, p.first_seq)) AS first_k,
       arg_min(p.first_seq, (p.first_us, p.first_k, p.first_seq)) AS first_seq,
       max(p.last_us) AS last_us,
       arg_max(p.last_k, (p.last_us, p.last_k, p.last_seq)) AS last_k,
       arg_max(p.last_seq, (p.last_us, p.last_k, p.last_seq)) AS last_seq
FROM price_5m p
WHERE p.bucket >= (SELECT time_bucket(INTERVAL 1 HOUR, min(bucket)) FROM batch_price)
  AND (p.protocol, p.market, p.src, time_bucket(INTERVAL 1 HOUR, p.bucket)) IN (
    SELECT DISTINCT protocol, market, src, time_bucket(INTERVAL 1 HOUR, bucket) FROM batch_price)
GROUP BY ALL
ORDER BY bucket;
