-- Recomputes every lifecycle the staged batch touches from all of its fills (contract §6).
-- Sums first (one hash aggregate), then the first and last fill's attributes by joining on their
-- seq. No parameters.
--
-- Price averages (entry: increases, exit: decreases) are Σ size × price / Σ size over exact
-- integer sums, so they do not depend on the order DuckDB's threads combine rows: a rebuild gives
-- the same bits as incremental updates. A fill's size is counted in micro-USD (`micro`, the integer
-- DECIMAL(18,6) holds, from floor parts in BIGINT arithmetic: a DECIMAL(38,6) rescale costs ~1 µs a
-- row) and its notional as micro times the price in 10^-12 (`notional`, a HUGEINT). The quotient
-- N / M is then taken as q + R / M with q = floor(N / M) in doubles and R = N − q·M exact in
-- HUGEINT: any integer q makes that identity exact, and when every increase has one price P, R / M
-- lands q on P itself, so the average is that price (as a 12-decimal number). Measured on a 1M-fill
-- rebuild chunk of the bench journal: correctly rounded for every one-price lifecycle and 74 % of
-- the others, where the DECIMAL(38,18) quotient this replaced managed 66 % and 67 % (docs/performance.md,
-- "Rebuild"); and ~12 % less time for this step on that chunk in isolation. Dropped: N and M as
-- doubles divided directly (an open at 100 answered 99.99999999999999), an exact HUGEINT `//`
-- (slower than the decimal cast: DuckDB divides 128-bit integers bit by bit).
--
-- Neither join reads `fills` (a catch-up chunk probed every fill twice), and each joins
-- only the batch rows that are some lifecycle's first or last fill, not every row with its
-- strings: the last fill is in the batch (its seqs are the newest); so is the first one of a
-- lifecycle the batch starts, and any other touched lifecycle was open before the batch (a fill
-- joins the open lifecycle of its position or starts a new one, server/ingest/lifecycle-index.ts),
-- so its open_lifecycles row, still the state before the batch (open-lifecycles-*.sql run next),
-- has the first fill's attributes. The first fill's own entry price (the entry fallback below) is
-- used only when no fill of the lifecycle has increased it, and then it is also the open row's
-- entry price. A lifecycle found in neither would fail the NOT NULL constraints, not vanish.
INSERT INTO lifecycles
WITH touched AS (
  SELECT position_id,
    min(seq) AS first_seq, max(seq) AS last_seq, count(*)::INTEGER AS fill_count,
    sum(notional) FILTER (size_delta_usd > 0) AS up_notional,
    sum(micro) FILTER (size_delta_usd > 0) AS up_micro,
    sum(-notional) FILTER (size_delta_usd < 0) AS down_notional,
    sum(-micro) FILTER (size_delta_usd < 0) AS down_micro,
    max(position_size_usd) AS max_size_usd, max(position_collateral_usd) AS max_collateral_usd,
    coalesce(max(position_size_usd::DOUBLE / position_collateral_usd::DOUBLE)
               FILTER (position_collateral_usd > 0 AND position_size_usd > 0), 0) AS max_leverage,
    coalesce(sum(abs(size_delta_usd)) FILTER (type <> 'liquidation'), 0) AS volume_usd,
    sum(pnl_delta_usd) AS realized, sum(fee_usd) AS fees,
    coalesce(sum(liquidation_fee_usd), 0) AS liq_fees, coalesce(sum(funding_fee_usd), 0) AS funding_fees,
    coalesce(sum(borrowing_fee_usd), 0) AS borrowing_fees, coalesce(sum(funding_earned_usd), 0) AS earned
  FROM (
    SELECT *, micro::HUGEINT * round(price * 1e12)::HUGEINT AS notional
    FROM (
      SELECT *, floor(size_delta_usd)::BIGINT * 1000000 + ((size_delta_usd - floor(size_delta_usd)) * 1000000)::BIGINT AS micro
      FROM fills
      WHERE position_id IN (SELECT DISTINCT position_id FROM batch_fills)
    )
  )
  GROUP BY position_id
),
-- floor(N / M) of each average, for the exact remainder below
touched_q AS (
  SELECT *, floor(up_notional::DOUBLE / up_micro::DOUBLE) AS up_q, floor(down_notional::DOUBLE / down_micro::DOUBLE) AS down_q
  FROM touched
),
first_fill AS (
  SELECT seq, protocol, position_key, address, market, market_variant, side, time, tx, entry_price
  FROM batch_fills
  WHERE seq IN (SELECT first_seq FROM touched)
  UNION ALL
  SELECT first_seq, protocol, position_key, address, market, market_variant, side, opened_at, open_tx, entry_price
  FROM open_lifecycles
  WHERE first_seq < (SELECT min(seq) FROM batch_fills)
)
SELECT
  t.position_id, f.protocol, f.position_key, f.address, f.market, f.market_variant, f.side,
  CASE l.type WHEN 'close' THEN 'closed' WHEN 'liquidation' THEN 'liquidated' ELSE 'open' END,
  f.time,
  CASE WHEN l.type IN ('close', 'liquidation') THEN l.time END,
  l.time,
  f.tx,
  CASE WHEN l.type IN ('close', 'liquidation') THEN l.tx END,
  -- entry: size-weighted average of increase prices (the first fill's running entry if none)
  coalesce((t.up_q + (t.up_notional - t.up_q::HUGEINT * t.up_micro)::DOUBLE / t.up_micro::DOUBLE) / 1e12, f.entry_price),
  -- exit: size-weighted average of decrease prices, once the lifecycle has ended
  CASE WHEN l.type IN ('close', 'liquidation')
       THEN (t.down_q + (t.down_notional - t.down_q::HUGEINT * t.down_micro)::DOUBLE / t.down_micro::DOUBLE) / 1e12 END,
  l.position_size_usd, l.position_collateral_usd, t.max_size_usd, t.max_collateral_usd, t.max_leverage,
  t.volume_usd, t.realized, t.fees, t.liq_fees, t.funding_fees, t.borrowing_fees, t.earned,
  t.realized - t.fees - t.borrowing_fees - t.funding_fees - t.liq_fees + t.earned,
  t.fill_count, t.first_seq, t.last_seq
FROM touched_q t
LEFT JOIN first_fill f ON f.seq = t.first_seq
JOIN (
  SELECT seq, type, time, tx, position_size_usd, position_collateral_usd
  FROM batch_fills
  WHERE seq IN (SELECT last_seq FROM touched)
) l ON l.seq = t.last_seq
-- by position_id, an integer: cheaper to sort than the address strings it was sorted by before,
-- for the zone maps of an address's reads. Those now read the history read index (sorted by
-- address itself, sql/read/lifecycles/index/history-fill.sql) and only a last_seq tail of this table. Without any
-- ORDER BY the rebuild is slower still, its final checkpoint longest (docs/performance.md, "Rebuild
-- details").
ORDER BY t.position_id;
