-- UTC days (YYYY-MM-DD) holding fills with $after_seq < seq <= $to_seq: the days whose fill
-- buckets the rollup refresh looks at. Parameters: $after_seq BIGINT, $to_seq BIGINT.
SELECT DISTINCT strftime(time::DATE, '%Y-%m-%d') AS day
FROM fills
WHERE seq > $after_seq AND seq <= $to_seq
ORDER BY day;
