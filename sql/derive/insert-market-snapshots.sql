-- Copies the staged batch's market snapshots into `market_snapshots`, in journal order. No parameters.
INSERT INTO market_snapshots
SELECT time, protocol, market, market_variant, index_price, oi_long_usd, oi_short_usd,
       funding_rate_long, funding_rate_short, borrowing_rate_long, borrowing_rate_short,
       funding_rate_raw, cum_borrowing_long, cum_borrowing_short, cum_funding_paid_long,
       cum_funding_paid_short, cum_funding_earned_long, cum_funding_earned_short
FROM batch_msnap
ORDER BY ord_commit, ord_row;
