-- The by-address files of one lifecycle-store segment (server/http/lifecycle-accounts.ts writes them;
-- `GET /v1/alpha/accounts/{address}/history` reads them): every alpha lifecycle closed or liquidated by
-- a fill with $after < seq <= $mark (the segment's lifecycles), in (address, position_id) order, with
-- account history's filter and sort keys and its record document.
-- Parameters: $after BIGINT, $mark BIGINT (as sql/store/lifecycle-docs.sql).
-- Columns: address, position_id, market_variant, market, opened_us, closed_us, max_size_usd (NULL
-- possible), net_pnl_usd, max_leverage (the alpha_record_docs macro's, as DOUBLE), doc.
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
FROM alpha_record_docs()
WHERE status <> 'open' AND last_seq > $after::BIGINT AND last_seq <= $mark::BIGINT
ORDER BY address, position_id;
