-- GET /v1/{protocol}/fills: one page of fills, newest first (time desc, then journal seq desc), each
-- row the stream's data-frame Fill (sql/stream/fills.sql's columns and order) plus `time_us` (the
-- fill's time in epoch µs, the cursor's key; the route strips it).
-- Parameters: $protocol VARCHAR; filters, each NULL = any: $address VARCHAR, $market VARCHAR,
-- $market_variant VARCHAR, $type VARCHAR, $side VARCHAR, $min_size_usd DOUBLE (|size_delta_usd| at
-- least this); the window, BIGINT epoch ms, never NULL: $from (inclusive), $to (exclusive); the
-- cursor, never NULL: $after_us BIGINT (µs) and $after_seq BIGINT, rows strictly after (after_us,
-- after_seq) in the order (a first page passes to × 1000 and the largest seq); $fetch BIGINT, the
-- rows to return (the page size plus one, which tells whether more exist).
-- Plan: the bounds are plain ranges on `time` (no "IS NULL OR"), so DuckDB folds them into table
-- filters and zone maps skip the rest of the journal (the route narrows the window first).
SELECT f.seq,
       f.protocol,
       f.position_id,
       f.address,
       f.market,
       f.market_variant,
       f.side,
       f.time,
       f.type,
       round(f.size_delta_usd, 6)::DOUBLE AS size_delta_usd,
       round(f.position_size_usd, 6)::DOUBLE AS position_size_usd,
       round(f.collateral_delta_usd, 6)::DOUBLE AS collateral_delta_usd,
       f.price,
       f.entry_price,
       round(f.pnl_delta_usd, 6)::DOUBLE AS pnl_delta_usd,
       round(f.fee_usd, 6)::DOUBLE AS fee_usd,
       round(f.borrowing_fee_usd, 6)::DOUBLE AS borrowing_fee_usd,
       round(f.funding_fee_usd, 6)::DOUBLE AS funding_fee_usd,
       round(f.liquidation_fee_usd, 6)::DOUBLE AS liquidation_fee_usd,
       round(f.fee_total_usd, 6)::DOUBLE AS fee_total_usd,
       f.tx,
       epoch_us(f.time) AS time_us
FROM fills f
WHERE f.protocol = $protocol::VARCHAR
  AND f.time >= epoch_ms($from::BIGINT)
  AND f.time < epoch_ms($to::BIGINT)
  AND f.time <= make_timestamp($after_us::BIGINT)
  AND (f.time < make_timestamp($after_us::BIGINT) OR f.seq < $after_seq::BIGINT)
  AND ($address::VARCHAR IS NULL OR f.address = $address::VARCHAR)
  AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
  AND ($market_variant::VARCHAR IS NULL OR f.market_variant = $market_variant::VARCHAR)
  AND ($type::VARCHAR IS NULL OR f.type = $type::VARCHAR)
  AND ($side::VARCHAR IS NULL OR f.side = $side::VARCHAR)
  AND ($min_size_usd::DOUBLE IS NULL OR abs(f.size_delta_usd)::DOUBLE >= $min_size_usd::DOUBLE)
ORDER BY f.time DESC, f.seq DESC
LIMIT $fetch::BIGINT;
