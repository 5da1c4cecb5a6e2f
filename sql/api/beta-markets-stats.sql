-- `GET /v1/beta/markets/stats`: one Market-shaped row per active beta market
-- (= with a snapshot in market_latest), market_variant null, ordered by market.
-- Parameters: $now BIGINT, epoch ms (service clock); the 24 h window is [now - 24 h, now).
-- Beta snapshots are per market; should a market ever have several snapshot rows (variants),
-- OI is summed, the price is the newest row's, and each side's rate (− hourly borrow rate, <= 0)
-- is the OI-weighted mean of that side (plain mean when the side has no OI).
WITH snap AS (
  SELECT market,
         arg_max(index_price, time) AS index_price,
         sum(oi_long_usd) AS oi_long_usd,
         sum(oi_short_usd) AS oi_short_usd,
         CASE WHEN count(*) = 1 THEN any_value(funding_rate_long)
              ELSE coalesce(sum(funding_rate_long * oi_long_usd::DOUBLE) / nullif(sum(oi_long_usd::DOUBLE), 0),
                            avg(funding_rate_long)) END AS funding_rate_long,
         CASE WHEN count(*) = 1 THEN any_value(funding_rate_short)
              ELSE coalesce(sum(funding_rate_short * oi_short_usd::DOUBLE) / nullif(sum(oi_short_usd::DOUBLE), 0),
                            avg(funding_rate_short)) END AS funding_rate_short
  FROM market_latest
  WHERE protocol = 'beta'
  GROUP BY market
),
day AS (
  SELECT market, sum(volume_usd) AS volume_usd, sum(fees_usd) AS fees_usd, sum(liquidations_usd) AS liquidations_usd
  FROM activity_24h($now::BIGINT) WHERE protocol = 'beta' GROUP BY market
)
SELECT NULL::VARCHAR AS market_variant,
       s.market,
       s.index_price,
       round(s.oi_long_usd, 6)::DOUBLE AS open_interest_long_usd,
       round(s.oi_short_usd, 6)::DOUBLE AS open_interest_short_usd,
       s.funding_rate_long,
       s.funding_rate_short,
       round(coalesce(day.volume_usd, 0), 6)::DOUBLE AS volume_24h_usd,
       round(coalesce(day.fees_usd, 0), 6)::DOUBLE AS fees_24h_usd,
       round(coalesce(day.liquidations_usd, 0), 6)::DOUBLE AS liquidations_24h_usd
FROM snap s
LEFT JOIN day USING (market)
ORDER BY s.market;
