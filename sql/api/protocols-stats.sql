-- `GET /v1/protocols/stats`: one ProtocolOverview row per tracked protocol (alpha, beta),
-- present even with no data (zeros).
-- Parameters: $now BIGINT, epoch ms (service clock); the 24 h window is [now - 24 h, now).
--   open_interest_usd     = Σ long + short OI of the latest snapshot of every variant (market_latest)
--   volume_24h_usd        = Σ |size_delta_usd| of non-liquidation fills in the window
--   fees_24h_usd          = Σ fee_usd (trading fee) of all fills in the window
--   liquidations_24h_usd  = Σ |size_delta_usd| of liquidation fills in the window
--   markets               = distinct `market` symbols with a snapshot (active = in market_latest)
WITH protocols(protocol, ord) AS (VALUES ('alpha', 1), ('beta', 2)),
oi AS (
  SELECT protocol, sum(oi_long_usd + oi_short_usd) AS oi_usd, count(DISTINCT market) AS markets
  FROM market_latest
  GROUP BY protocol
),
day AS (
  SELECT protocol, sum(volume_usd) AS volume_usd, sum(fees_usd) AS fees_usd, sum(liquidations_usd) AS liquidations_usd
  FROM activity_24h($now::BIGINT) GROUP BY protocol
)
SELECT p.protocol,
       round(coalesce(oi.oi_usd, 0), 6)::DOUBLE AS open_interest_usd,
       round(coalesce(day.volume_usd, 0), 6)::DOUBLE AS volume_24h_usd,
       round(coalesce(day.fees_usd, 0), 6)::DOUBLE AS fees_24h_usd,
       round(coalesce(day.liquidations_usd, 0), 6)::DOUBLE AS liquidations_24h_usd,
       coalesce(oi.markets, 0)::INTEGER AS markets
FROM protocols p
LEFT JOIN oi USING (protocol)
LEFT JOIN day USING (protocol)
ORDER BY p.ord;
