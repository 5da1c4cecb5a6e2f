-- Adds the staged batch's fills to the 5-minute fill rollup per (market key, bucket), creating
-- buckets as needed. Every column is a count or an exact decimal sum, and journaled fills never
-- change, so merging batch by batch gives exactly what a rebuild computes in one go.
-- volume: |size delta| of non-liquidation fills (collateral edits add 0); fees: trading fees of
-- all fills; OI deltas: signed size deltas per side (liquidations included, so OI nets to 0);
-- liquidations: count, notional by side, liquidation fees (contract §4). No parameters.
MERGE INTO rollup_5m r
USING (
  SELECT protocol, market, market_variant, time_bucket(INTERVAL 5 MINUTE, time) AS bucket,
    count(*)::INTEGER AS fill_count,
    coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0) AS volume_usd,
    sum(fee_usd) AS fees_usd,
    coalesce(sum(size_delta_usd) FILTER (side = 'long'), 0) AS oi_long_delta_usd,
    coalesce(sum(size_delta_usd) FILTER (side = 'short'), 0) AS oi_short_delta_usd,
    (count(*) FILTER (type = 'liquidation'))::INTEGER AS liq_count,
    coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'long'), 0) AS liq_long_usd,
    coalesce(sum(-size_delta_usd) FILTER (type = 'liquidation' AND side = 'short'), 0) AS liq_short_usd,
    coalesce(sum(liquidation_fee_usd) FILTER (type = 'liquidation'), 0) AS liq_fees_usd
  FROM batch_fills GROUP BY ALL
) b
ON r.protocol = b.protocol AND r.market = b.market AND r.market_variant IS NOT DISTINCT FROM b.market_variant AND r.bucket = b.bucket
WHEN MATCHED THEN UPDATE SET
  fill_count = r.fill_count + b.fill_count, volume_usd = r.volume_usd + b.volume_usd, fees_usd = r.fees_usd + b.fees_usd,
  oi_long_delta_usd = r.oi_long_delta_usd + b.oi_long_delta_usd, oi_short_delta_usd = r.oi_short_delta_usd + b.oi_short_delta_usd,
  liq_count = r.liq_count + b.liq_count, liq_long_usd = r.liq_long_usd + b.liq_long_usd,
  liq_short_usd = r.liq_short_usd + b.liq_short_usd, liq_fees_usd = r.liq_fees_usd + b.liq_fees_usd
WHEN NOT MATCHED THEN INSERT (protocol, market, market_variant, bucket, fill_count, volume_usd, fees_usd,
    oi_long_delta_usd, oi_short_delta_usd, liq_count, liq_long_usd, liq_short_usd, liq_fees_usd)
  VALUES (b.protocol, b.market, b.market_variant, b.bucket, b.fill_count, b.volume_usd, b.fees_usd,
    b.oi_long_delta_usd, b.oi_short_delta_usd, b.liq_count, b.liq_long_usd, b.liq_short_usd, b.liq_fees_usd);
