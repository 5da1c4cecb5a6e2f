-- Recomputes every account the staged batch touches from its lifecycles (contract §6).
-- Averages are taken over exact values (decimals, integer milliseconds) so they do not depend
-- on row order: a rebuild gives the same bits. No parameters.
INSERT INTO accounts
SELECT
  protocol, address,
  count(*) FILTER (status <> 'open'),
  count(*) FILTER (status <> 'open' AND net_pnl_usd > 0),
  count(*) FILTER (status <> 'open' AND net_pnl_usd < 0),
  coalesce(count(*) FILTER (status <> 'open' AND net_pnl_usd > 0) / nullif(count(*) FILTER (status <> 'open'), 0), 0),
  sum(volume_usd), sum(net_pnl_usd),
  count(*), count(*) FILTER (status = 'open'),
  min(opened_at), max(last_fill_at),
  sum(realized_pnl_usd), sum(fees_usd), sum(funding_fees_usd), sum(funding_earned_usd),
  sum(borrowing_fees_usd), sum(liquidation_fees_usd),
  avg(max_leverage::DECIMAL(38,12))::DOUBLE, max(max_leverage),
  avg(max_size_usd)::DOUBLE, max(max_size_usd),
  avg(epoch_ms(closed_at) - epoch_ms(opened_at)) FILTER (status <> 'open') / 3600000.0,
  coalesce(sum(size_usd) FILTER (status = 'open'), 0),
  list_sort(list_distinct(list(market))),
  coalesce(list_sort(list_distinct(list(market_variant))), [])
FROM lifecycles l
WHERE EXISTS (SELECT 1 FROM batch_fills b WHERE b.protocol = l.protocol AND b.address = l.address)
GROUP BY protocol, address
ORDER BY address;  -- zone maps on address (issue 7)
