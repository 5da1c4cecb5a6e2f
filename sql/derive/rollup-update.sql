-- Adds the staged batch's fills to the 5-minute fill rollup per (market key, bucket): this step
-- updates the buckets that already exist, rollup-insert.sql then creates the others (in time
-- order, so zone maps on `bucket` prune the window reads of the history endpoints; a MERGE
-- inserted in hash order). Every column is a count or an exact decimal sum, and journaled fills
-- never change, so merging batch by batch gives exactly what a rebuild computes in one go.
-- volume: |size delta| of non-liquidation fills (collateral edits add 0); fees: trading fees of
-- all fills; OI deltas: signed size deltas per side (liquidations included, so OI nets to 0);
-- liquidations: count, notional by side, liquidation fees (contract §4). The aggregate is
-- batch_rollup (sql/derive/rollup-stage.sql). No parameters.
UPDATE rollup_5m r SET
  fill_count = r.fill_count + b.fill_count, volume_usd = r.volume_usd + b.volume_usd, fees_usd = r.fees_usd + b.fees_usd,
  oi_long_delta_usd = r.oi_long_delta_usd + b.oi_long_delta_usd, oi_short_delta_usd = r.oi_short_delta_usd + b.oi_short_delta_usd,
  liq_count = r.liq_count + b.liq_count, liq_long_usd = r.liq_long_usd + b.liq_long_usd,
  liq_short_usd = r.liq_short_usd + b.liq_short_usd, liq_fees_usd = r.liq_fees_usd + b.liq_fees_usd
FROM batch_rollup b
WHERE r.bucket >= (SELECT min(bucket) FROM batch_rollup)
  AND r.protocol = b.protocol AND r.market = b.market AND r.market_variant IS NOT DISTINCT FROM b.market_variant
  AND r.bucket = b.bucket;
