-- The raw fills of $protocol of every market in [$lo, $hi), one 5-minute bucket, for the partial pieces
-- at the edges of a history window (the liquidation, open-interest and volume history routes when served from the in-memory mirror;
-- server/read/buckets/edge-buckets.ts keeps them per bucket, server/read/buckets/mirror-history.ts sums them as
-- sql/derive/rollup-stage.sql would, and their first time serves the answer's cache bound,
-- server/read/buckets/mirror-probe.ts): time_ms epoch ms; amounts as micro-dollars,
-- round(amount::DOUBLE * 1e6), the exact integer below 2^50 (checked there). Aggregating here
-- instead cost ~3x as much (the DECIMAL sums and their casts) for the few rows of five minutes.
-- `seq` lets an append add its own fills to a kept bucket exactly once (edgeFillOf in
-- server/read/buckets/edge-buckets.ts is this row made from an appended fill).
-- Parameters: $protocol VARCHAR ('alpha' or 'beta': one mirror each), $lo / $hi BIGINT epoch ms.
SELECT f.seq::DOUBLE AS seq, f.market, f.market_variant, epoch_ms(f.time)::DOUBLE AS time_ms, f.type = 'liquidation' AS liquidation, f.side = 'long' AS is_long, f.side = 'short' AS is_short,
       round(f.size_delta_usd::DOUBLE * 1000000) AS size_delta, round(f.fee_usd::DOUBLE * 1000000) AS fee,
       round(coalesce(f.liquidation_fee_usd, 0)::DOUBLE * 1000000) AS liquidation_fee
FROM fills f
WHERE f.protocol = $protocol::VARCHAR AND f.time >= epoch_ms($lo::BIGINT) AND f.time < epoch_ms($hi::BIGINT);
