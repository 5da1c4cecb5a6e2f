-- `GET /v1/stream/{protocol}/fills` (the fills stream): fills in journal (seq) order, in the Fill shape
-- of a data frame.
-- The PositionEvent columns are projected exactly as `GET /v1/alpha/positions/{address}/{id}/lifecycle`
-- projects them (sql/api/alpha-position-lifecycle.sql: USD rounded to 6 decimals, prices as stored),
-- followed by seq, protocol, position_id, address, market, market_variant and side. A resume replays
-- with it; live frames are built in JS with the same fields, order and values
-- (server/stream/fill-json.ts). test/stream/stream.test.ts and test/stream/stream-frames.test.ts check frames against
-- REST and live against replay.
-- Parameters:
--   $after BIGINT               only seq > $after
--   $until BIGINT               only seq <= $until
--   $protocol VARCHAR           alpha | beta
--   $market VARCHAR or NULL     grouped market symbol (covers every variant of it); NULL = any
--   $address VARCHAR or NULL    owner address; NULL = any
--   $since_ms BIGINT or NULL    only fills whose time is at or after this epoch ms (resume horizon)
--   $limit BIGINT               at most this many rows (the lowest seqs)
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
       f.tx
FROM fills f
WHERE f.seq > $after::BIGINT
  AND f.seq <= $until::BIGINT
  AND f.protocol = $protocol::VARCHAR
  AND ($market::VARCHAR IS NULL OR f.market = $market::VARCHAR)
  AND ($address::VARCHAR IS NULL OR f.address = $address::VARCHAR)
  AND ($since_ms::BIGINT IS NULL OR f.time >= epoch_ms($since_ms::BIGINT))
ORDER BY f.seq
LIMIT $limit::BIGINT;
