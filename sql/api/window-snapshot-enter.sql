-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- The cache bound of an open-interest history answer whose window end moves with the clock
-- (server/http/history-validity.ts): a lower bound, epoch ms, on the time of the first alpha
-- market snapshot at or after $now (NULL when there is none). oi_snapshot_5m keeps each 5-minute
-- bucket's last snapshot time, so such a snapshot lies in a bucket whose row has time >= $now,
-- and no earlier than that bucket's start: the earliest such row gives max($now, its bucket).
-- Parameters: $market VARCHAR or NULL (NULL = every alpha variant); $now BIGINT epoch ms.
SELECT greatest($now::BIGINT, epoch_ms(min(bucket)))::DOUBLE AS enter
FROM oi_snapshot_5m
WHERE protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR market = $market::VARCHAR)
  AND bucket >= epoch_ms($now::BIGINT // 300000 * 300000) AND time >= epoch_ms($now::BIGINT)
HAVING count(*) > 0;
