-- Inserts the staged batch's newest snapshot per market key where nothing newer is kept.
-- Order within the batch: time, then commit, then row (journal order). No parameters.
INSERT INTO market_latest
SELECT time, protocol, market, market_variant, index_price, oi_long_usd, oi_short_usd,
       funding_rate_long, funding_rate_short, borrowing_rate_long, borrowing_rate_short,
       funding_rate_raw, cum_borrowing_long, cum_borrowing_short, cum_funding_paid_long,
       cum_funding_paid_short, cum_funding_earned_long, cum_funding_earned_short
FROM batch_msnap b
WHERE NOT EXISTS (
    SELECT 1 FROM market_latest m
    WHERE m.protocol = b.protocol AND m.market = b.market AND m.market_variant IS NOT DISTINCT FROM b.market_variant)
QUALIFY row_number() OVER (PARTITION BY protocol, market, market_variant
                           ORDER BY time DESC, ord_commit DESC, ord_row DESC) = 1;
