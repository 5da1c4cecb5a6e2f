-- Inserts the staged batch's newest snapshot per market key where nothing newer is kept.
-- Order: time, then commit, then row (journal order). The newest time per key comes first (one
-- cheap aggregate); only the rows at that time (one per key but for ties) go through the window
-- that breaks ties: an arg_max over a struct of every column cost ~5x this on a month of
-- snapshots (the struct was built for every row). No parameters.
INSERT INTO market_latest
WITH newest AS (
  SELECT protocol, market, market_variant, max(time) AS t FROM batch_msnap GROUP BY ALL
)
SELECT b.time, b.protocol, b.market, b.market_variant, b.index_price, b.oi_long_usd, b.oi_short_usd,
       b.funding_rate_long, b.funding_rate_short, b.borrowing_rate_long, b.borrowing_rate_short, b.funding_rate_raw,
       b.cum_borrowing_long, b.cum_borrowing_short, b.cum_funding_paid_long, b.cum_funding_paid_short,
       b.cum_funding_earned_long, b.cum_funding_earned_short
FROM batch_msnap b
JOIN newest n ON b.protocol = n.protocol AND b.market = n.market
  AND b.market_variant IS NOT DISTINCT FROM n.market_variant AND b.time = n.t
WHERE NOT EXISTS (
  SELECT 1 FROM market_latest m
  WHERE m.protocol = b.protocol AND m.market = b.market AND m.market_variant IS NOT DISTINCT FROM b.market_variant)
QUALIFY row_number() OVER (PARTITION BY b.protocol, b.market, b.market_variant ORDER BY b.ord_commit DESC, b.ord_row DESC) = 1;
