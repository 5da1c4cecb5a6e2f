-- `GET /v1/alpha/markets/stats`: one Market row per active alpha variant (= with a
-- snapshot in market_latest), ordered by market, variant.
-- Parameters: $now BIGINT, epoch ms (service clock); the 24 h window is [now - 24 h, now).
-- Price, OI and net funding rates are the latest snapshot's; volume (non-liquidation |size delta|),
-- fees (trading fee of all fills) and liquidations (|size delta| of liquidation fills) come from
-- the variant's fills in the window (the activity_24h macro, sql/schema/read-macros.sql). USD amounts rounded to 6 decimals; price and rates are not.
SELECT m.market_variant,
       m.market,
       m.index_price,
       round(m.oi_long_usd, 6)::DOUBLE AS open_interest_long_usd,
       round(m.oi_short_usd, 6)::DOUBLE AS open_interest_short_usd,
       m.funding_rate_long,
       m.funding_rate_short,
       round(coalesce(day.volume_usd, 0), 6)::DOUBLE AS volume_24h_usd,
       round(coalesce(day.fees_usd, 0), 6)::DOUBLE AS fees_24h_usd,
       round(coalesce(day.liquidations_usd, 0), 6)::DOUBLE AS liquidations_24h_usd
FROM market_latest m
LEFT JOIN activity_24h($now::BIGINT) day
  ON day.protocol = m.protocol AND day.market = m.market AND day.market_variant IS NOT DISTINCT FROM m.market_variant
WHERE m.protocol = 'alpha'
ORDER BY m.market, m.market_variant NULLS FIRST;
