-- The latest market snapshot of every market (the solana source continues its integrated
-- cumulative funding from it after a restart). No parameters.
SELECT protocol, market, market_variant, epoch_ms(time) AS time_ms,
       funding_rate_long + borrowing_rate_long AS funding_long, funding_rate_short + borrowing_rate_short AS funding_short,
       cum_funding_paid_long, cum_funding_paid_short, cum_funding_earned_long, cum_funding_earned_short
FROM market_latest;
