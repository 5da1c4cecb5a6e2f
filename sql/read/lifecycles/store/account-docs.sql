-- The by-address files of one lifecycle-store segment (server/read/lifecycles/lifecycle-accounts.ts writes
-- them; `GET /v1/{protocol}/accounts/{address}/history` reads them): every lifecycle of $protocol closed or liquidated by a fill with
-- $after < seq <= $mark (the segment's lifecycles), in (address, position_id) order, with endpoint
-- 15's filter and sort keys and its record document.
-- Parameters: $protocol VARCHAR, $after BIGINT, $mark BIGINT (as sql/read/lifecycles/store/lifecycle-docs.sql).
-- Columns: address, position_id, market_variant, market, opened_us, closed_us, max_size_usd (NULL
-- possible), net_pnl_usd, max_leverage (the record_docs macro's, as DOUBLE), doc.
SELECT address,
       position_id::DOUBLE AS position_id,
       market_variant,
       market,
       opened_us,
       closed_us,
       max_size_usd,
       net_pnl_usd,
       max_leverage,
       doc
FROM record_docs($protocol::VARCHAR)
WHERE status <> 'open' AND last_seq > $after::BIGINT AND last_seq <= $mark::BIGINT
ORDER BY address, position_id;
