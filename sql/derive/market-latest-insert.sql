-- Inserts the staged batch's newest snapshot per market key where nothing newer is kept.
-- Order: time, then commit, then row (journal order); picked with one arg_max over a struct of
-- the row rather than a window sort. No parameters.
INSERT INTO market_latest
SELECT l.*
FROM (
  SELECT unnest(arg_max(
    {time: time, protocol: protocol, market: market, market_variant: market_variant, index_price: index_price,
     oi_long_usd: oi_long_usd, oi_short_usd: oi_short_usd, funding_rate_long: funding_rate_long,
     funding_rate_short: funding_rate_short, borrowing_rate_long: borrowing_rate_long,
     borrowing_rate_short: borrowing_rate_short, funding_rate_raw: funding_rate_raw,
     cum_borrowing_long: cum_borrowing_long, cum_borrowing_short: cum_borrowing_short,
     cum_funding_paid_long: cum_funding_paid_long, cum_funding_paid_short: cum_funding_paid_short,
     cum_funding_earned_long: cum_funding_earned_long, cum_funding_earned_short: cum_funding_earned_short},
    (time, ord_commit, ord_row)))
  FROM batch_msnap
  GROUP BY protocol, market, market_variant
) l
WHERE NOT EXISTS (
  SELECT 1 FROM market_latest m
  WHERE m.protocol = l.protocol AND m.market = l.market AND m.market_variant IS NOT DISTINCT FROM l.market_variant);
