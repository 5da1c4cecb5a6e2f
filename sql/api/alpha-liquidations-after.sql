-- The alpha liquidation events with seq > $after_seq, in seq order, each row exactly as
-- sql/api/alpha-liquidations-search.sql serves it (with its time_ms and seq), plus time_us (the
-- event time in epoch µs, the search's sort key): for endpoint 5's in-memory index
-- (server/http/liquidation-index.ts), which loads them all once, then those of each append.
-- Parameters: $after_seq BIGINT (0: every event).
SELECT time,
       position_id,
       protocol,
       market,
       market_variant,
       address,
       side,
       round(-size_delta_usd, 6)::DOUBLE AS size_usd,
       round(-collateral_delta_usd, 6)::DOUBLE AS collateral_usd,
       price,
       entry_price,
       round(pnl_delta_usd, 6)::DOUBLE AS pnl_usd,
       round(coalesce(liquidation_fee_usd, 0), 6)::DOUBLE AS liquidation_fee_usd,
       tx,
       epoch_ms(time) AS time_ms,
       seq,
       epoch_us(time)::DOUBLE AS time_us
FROM liquidations
WHERE protocol = 'alpha' AND seq > $after_seq::BIGINT
ORDER BY seq;
