-- `GET /v1/{protocol}/accounts/{address}/history`'s in-memory tail (server/read/lifecycles/closed-tail.ts): the lifecycles of $protocol closed or
-- liquidated by a fill after $after (the lifecycle store's mark, or what the tail already holds),
-- with the filter and sort keys and the record document of sql/read/lifecycles/store/account-docs.sql, and the
-- derived watermark they are complete up to (read in the same statement, so the same snapshot).
-- Parameters: $protocol VARCHAR ('alpha' or 'beta'); $after BIGINT; $limit BIGINT (the tail's cap: more than $limit rows means "too many
-- to hold", and the caller stops reading here).
-- Always one row at least: with no lifecycle, a single row whose position_id is NULL carries the
-- watermark. Lifecycles are the last rows written, so zone maps on last_seq skip the rest.
WITH closed AS (
  SELECT address, position_id::DOUBLE AS position_id, market_variant, market, opened_us, closed_us,
         max_size_usd, net_pnl_usd, max_leverage, last_seq::DOUBLE AS last_seq, doc
  FROM record_docs($protocol::VARCHAR)
  WHERE status <> 'open' AND last_seq > $after::BIGINT
  LIMIT $limit::BIGINT + 1
)
SELECT (SELECT coalesce(max(value::BIGINT), 0) FROM meta WHERE key = 'derived_seq')::DOUBLE AS watermark, c.*
FROM (SELECT 1) one
LEFT JOIN closed c ON true;
