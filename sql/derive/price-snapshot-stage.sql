-- The staged batch's market snapshots as 5-minute OHLC of the index price per (protocol, market,
-- bucket), src 1, for price-update.sql and price-insert.sql: open / close = the price of the first /
-- last snapshot by (time, variant), high / low = max / min, with those keys (price_5m in
-- sql/schema/derived.sql).
-- A temp table of the writer connection, replaced on every batch. No parameters.
CREATE OR REPLACE TEMP TABLE batch_price AS
SELECT protocol, market, 1 AS src, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
       arg_min(index_price, (epoch_us(time), coalesce(market_variant, ''), 0::BIGINT)) AS open,
       max(index_price) AS high,
       min(index_price) AS low,
       arg_max(index_price, (epoch_us(time), coalesce(market_variant, ''), 0::BIGINT)) AS close,
       count(*)::INTEGER AS observations,
       min(epoch_us(time)) AS first_us,
       arg_min(coalesce(market_variant, ''), (epoch_us(time), coalesce(market_variant, ''), 0::BIGINT)) AS first_k,
       arg_min(0::BIGINT, (epoch_us(time), coalesce(market_variant, ''), 0::BIGINT)) AS first_seq,
       max(epoch_us(time)) AS last_us,
       arg_max(coalesce(market_variant, ''), (epoch_us(time), coalesce(market_variant, ''), 0::BIGINT)) AS last_k,
       arg_max(0::BIGINT, (epoch_us(time), coalesce(market_variant, ''), 0::BIGINT)) AS last_seq
FROM batch_msnap
GROUP BY ALL;
