-- GET /v1/{protocol}/fills with `address`: sql/api/fills-search.sql's page (same columns, order,
-- parameters and filters) read from `fills_by_address`, where zone maps on `address` find the
-- wallet's few row groups. $address is never NULL here.
-- Parameters: $protocol, $address, $market, $market_variant, $type, $side VARCHAR or NULL;
-- $min_size_usd DOUBLE or NULL; $from, $to BIGINT epoch ms; $after_us, $after_seq BIGINT or NULL
-- (the cursor); $fetch INTEGER (the page size + 1).
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
FROM fills_by_address f
WHERE f.protocol = $protocol::VARCHAR
  AND f.address = $address::VARCHAR
  AND f.time >= epoch_ms($from::BIGINT)
  AND f.time < epoch_ms($to::BIGINT)
  AND f.time <= make_timestamp($after_us::BIGINT)
  AND (f.time < make_timestamp($after_us::BIGINT) OR f.seq < $after_seq::BIGINT)
  AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
  AND ($market_variant::VARCHAR IS NULL OR f.market_variant = $market_variant::VARCHAR)
  AND ($type::VARCHAR IS NULL OR f.type = $type::VARCHAR)
  AND ($side::VARCHAR IS NULL OR f.side = $side::VARCHAR)
  AND ($min_size_usd::DOUBLE IS NULL OR abs(f.size_delta_usd)::DOUBLE >= $min_size_usd::DOUBLE)
ORDER BY f.time DESC, f.seq DESC
LIMIT $fetch::BIGINT;
