-- Merges the staged batch's 5-minute price OHLC (batch_price, price-snapshot-stage.sql or
-- price-fill-stage.sql) into the kept buckets it shares: the earlier first observation keeps its
-- open, the later last one its close, high / low the extremes, observations add up. The keys
-- decide, not the batch order, so a merge batch by batch equals a rebuild's one pass.
-- price-insert.sql then adds the new buckets. No parameters.
UPDATE price_5m p SET
  open = CASE WHEN (b.first_us, b.first_k, b.first_seq) < (p.first_us, p.first_k, p.first_seq) THEN b.open ELSE p.open END,
  first_us = CASE WHEN (b.first_us, b.first_k, b.first_seq) < (p.first_us, p.first_k, p.first_seq) THEN b.first_us ELSE p.first_us END,
  first_k = CASE WHEN (b.first_us, b.first_k, b.first_seq) < (p.first_us, p.first_k, p.first_seq) THEN b.first_k ELSE p.first_k END,
  first_seq = CASE WHEN (b.first_us, b.first_k, b.first_seq) < (p.first_us, p.first_k, p.first_seq) THEN b.first_seq ELSE p.first_seq END,
  close = CASE WHEN (b.last_us, b.last_k, b.last_seq) > (p.last_us, p.last_k, p.last_seq) THEN b.close ELSE p.close END,
  last_us = CASE WHEN (b.last_us, b.last_k, b.last_seq) > (p.last_us, p.last_k, p.last_seq) THEN b.last_us ELSE p.last_us END,
  last_k = CASE WHEN (b.last_us, b.last_k, b.last_seq) > (p.last_us, p.last_k, p.last_seq) THEN b.last_k ELSE p.last_k END,
  last_seq = CASE WHEN (b.last_us, b.last_k, b.last_seq) > (p.last_us, p.last_k, p.last_seq) THEN b.last_seq ELSE p.last_seq END,
  high = greatest(p.high, b.high), low = least(p.low, b.low),
  observations = p.observations + b.observations
FROM batch_price b
WHERE p.bucket >= (SELECT min(bucket) FROM batch_price)
  AND p.protocol = b.protocol AND p.market = b.market AND p.src = b.src AND p.bucket = b.bucket;
