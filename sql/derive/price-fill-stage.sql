-- The staged batch's fills as 5-minute OHLC of the index price they carry per (protocol, market,
-- bucket), src 0, for price-update.sql and price-insert.sql: open / close = the price of the first /
-- last fill by (time, seq), high / low = max / min, with those keys (price_5m in
-- sql/schema/derived.sql).
-- A temp table of the writer connection, replaced on every batch. No parameters.
CREATE OR REPLACE TEMP TABLE batch_price AS
SELECT protocol, market, 0 AS src, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
       arg_min(index_price, (epoch_us(time), '', seq)) AS open,
       max(index_price) AS high,
       min(index_price) AS low,
       arg_max(index_price, (epoch_us(time), '', seq)) AS close,
       count(*)::INTEGER AS observations,
       min(epoch_us(time)) AS first_us,
       arg_min('', (epoch_us(time), '', seq)) AS first_k,
       arg_min(seq, (epoch_us(time), '', seq)) AS first_seq,
       max(epoch_us(time)) AS last_us,
       arg_max('', (epoch_us(time), '', seq)) AS last_k,
       arg_max(seq, (epoch_us(time), '', seq)) AS last_seq
FROM batch_fills
GROUP BY ALL;
