-- Read-side table macros shared by endpoints (run at every open after derived.sql, with
-- CREATE OR REPLACE). They shape answers, not the stored derived state, so they are not part of
-- its fingerprint (server/derive/version.ts): changing one needs no rebuild. The file binds no
-- parameters; each macro names its own arguments.

-- Trailing-24 h activity per (protocol, market, market variant) over [now − 24 h, now), shared by
-- the stats endpoints (1 protocol-wide, 4 alpha markets, 21 beta markets): volume = |size delta|
-- of non-liquidation fills, fees = trading fees of all fills, liquidations = |size delta| of
-- liquidation fills (the liquidated notional). Argument: now_ms, epoch ms.
-- Volume and fees of the window's whole 5-minute buckets come from rollup_5m (the same sums of the
-- same fills, kept by every append), those of the partial buckets at its two edges from the fills;
-- liquidations from the fills (a few percent of them). Summing every fill of a live day instead is
-- too slow for answers that every append recomputes (`GET /v1/protocols/stats`,
-- `GET /v1/alpha/markets/stats`, `GET /v1/beta/markets/stats`; docs/performance.md, "24 h activity").
CREATE OR REPLACE MACRO activity_24h(now_ms) AS TABLE
  WITH pieces AS (
    SELECT protocol, market, market_variant, volume_usd, fees_usd, 0 AS liquidations_usd
    FROM rollup_5m
    WHERE bucket >= epoch_ms((now_ms - 86400000 + 299999) // 300000 * 300000)
      AND bucket < epoch_ms(now_ms // 300000 * 300000) AND fill_count > 0
    UNION ALL
    SELECT protocol, market, market_variant,
           CASE WHEN type <> 'liquidation' THEN abs(size_delta_usd) ELSE 0 END, fee_usd, 0
    FROM fills
    WHERE time >= epoch_ms(now_ms - 86400000) AND time < epoch_ms((now_ms - 86400000 + 299999) // 300000 * 300000)
    UNION ALL
    -- (a separate branch, not an OR: each range must reach the scan as a zone-map filter)
    SELECT protocol, market, market_variant,
           CASE WHEN type <> 'liquidation' THEN abs(size_delta_usd) ELSE 0 END, fee_usd, 0
    FROM fills
    WHERE time >= epoch_ms(now_ms // 300000 * 300000) AND time < epoch_ms(now_ms)
    UNION ALL
    SELECT protocol, market, market_variant, 0, 0, abs(size_delta_usd)
    FROM fills
    WHERE type = 'liquidation' AND time >= epoch_ms(now_ms - 86400000) AND time < epoch_ms(now_ms)
  )
  SELECT protocol, market, market_variant,
         sum(volume_usd) AS volume_usd, sum(fees_usd) AS fees_usd, sum(liquidations_usd) AS liquidations_usd
  FROM pieces
  GROUP BY ALL;

-- The live state of every open lifecycle of protocol `proto`, shared by `/open-positions/search` and `/open-positions/stats` (whose figures
-- must agree; a test checks it): the latest position snapshot when it is at least as new as the
-- lifecycle's last fill ("fresh"); otherwise (no snapshot yet, or a fill newer than it) the state
-- after the last fill: size and collateral of the lifecycle, unsettled amounts 0 (fees settle on
-- every fill), mark = the variant's latest index price when not older than that fill, else the
-- fill's own index price, liquidation price null, updated_at = the fill's time, source null.
-- unrealized_pnl_usd is rounded per row so that sums over rows are exact. No arguments.
CREATE OR REPLACE MACRO open_positions_of(proto) AS TABLE
  WITH joined AS (
  SELECT l.position_id, l.market_variant, l.market, l.address, l.side, l.opened_at, l.entry_price,
         l.max_size_usd, l.max_collateral_usd, l.size_usd, l.collateral_usd, l.last_fill_at,
         p.time AS p_time, p.size_usd AS p_size, p.collateral_usd AS p_collateral,
         p.unsettled_borrowing_usd AS p_borrowing, p.unsettled_funding_usd AS p_funding,
         p.claimable_funding_usd AS p_claimable, p.mark_price AS p_mark, p.liquidation_price AS p_liq,
         p.source AS p_source, m.time AS m_time, m.index_price AS m_price, l.last_index_price AS f_price,
         coalesce(p.time >= l.last_fill_at, false) AS fresh
  FROM open_lifecycles l
  LEFT JOIN open_position_latest p ON p.protocol = l.protocol AND p.position_id = l.position_id
  LEFT JOIN market_latest m ON m.protocol = l.protocol AND m.market = l.market
        AND m.market_variant IS NOT DISTINCT FROM l.market_variant
  WHERE l.protocol = proto AND l.status = 'open'
),
state AS (
  SELECT position_id, market_variant, market, address, side, opened_at, entry_price,
         max_size_usd, max_collateral_usd,
         CASE WHEN fresh THEN p_size ELSE size_usd END AS current_size_usd,
         CASE WHEN fresh THEN p_collateral ELSE collateral_usd END AS current_collateral_usd,
         CASE WHEN fresh THEN p_borrowing ELSE 0 END AS unsettled_borrowing_usd,
         CASE WHEN fresh THEN p_funding ELSE 0 END AS unsettled_funding_usd,
         CASE WHEN fresh THEN p_claimable ELSE 0 END AS claimable_funding_usd,
         CASE WHEN fresh THEN p_mark WHEN m_time >= last_fill_at THEN m_price ELSE f_price END AS mark_price,
         CASE WHEN fresh THEN p_liq END AS liquidation_price,
         CASE WHEN fresh THEN p_time ELSE last_fill_at END AS updated_at,
         CASE WHEN fresh THEN p_source END AS source
  FROM joined
),
live AS (
  SELECT s.*,
         -- rounded per row, as an exact decimal, so that sums over rows equal the stats endpoint's
         round(s.current_size_usd::DOUBLE * (s.mark_price / s.entry_price - 1)
               * CASE WHEN s.side = 'short' THEN -1 ELSE 1 END, 6)::DECIMAL(38,6) AS unrealized_pnl_usd,
         s.current_size_usd::DOUBLE / nullif(s.current_collateral_usd, 0)::DOUBLE AS leverage,
         abs(s.mark_price - s.liquidation_price) / nullif(s.mark_price, 0) AS liq_proximity
  FROM state s
)
  SELECT * FROM live;

-- open_positions_of(proto) of alpha (its callers predate beta's endpoints). No arguments.
CREATE OR REPLACE MACRO open_alpha_positions() AS TABLE SELECT * FROM open_positions_of('alpha');

-- `GET /v1/alpha/open-positions/search`'s Open-search row exactly as served (USD rounded to 6 decimals,
-- prices, leverage and liq_proximity not), then what a search filters and sorts by that the served row
-- does not carry: the exact size_exact / collateral_exact / pnl_exact decimals, opened_us (the opening
-- time in epoch µs) and source (poll / event / NULL). Shared by sql/api/alpha-open-positions-search.sql
-- and alpha-open-positions-all.sql (the in-memory set's load), so the two cannot drift apart.
-- No arguments.
CREATE OR REPLACE MACRO open_position_rows_of(proto) AS TABLE
  SELECT proto AS protocol,
         r.position_id,
         r.market_variant,
         r.market,
         r.address,
         r.side,
         round(r.current_size_usd, 6)::DOUBLE AS current_size_usd,
         round(r.max_size_usd, 6)::DOUBLE AS max_size_usd,
         round(r.current_collateral_usd, 6)::DOUBLE AS current_collateral_usd,
         round(r.max_collateral_usd, 6)::DOUBLE AS max_collateral_usd,
         round(r.unsettled_borrowing_usd, 6)::DOUBLE AS unsettled_borrowing_usd,
         round(r.unsettled_funding_usd, 6)::DOUBLE AS unsettled_funding_usd,
         round(r.claimable_funding_usd, 6)::DOUBLE AS claimable_funding_usd,
         r.entry_price,
         r.leverage,
         r.opened_at,
         r.mark_price,
         r.unrealized_pnl_usd::DOUBLE AS unrealized_pnl_usd,
         r.liquidation_price,
         r.updated_at,
         r.current_size_usd AS size_exact,
         r.current_collateral_usd AS collateral_exact,
         r.unrealized_pnl_usd AS pnl_exact,
         epoch_us(r.opened_at)::DOUBLE AS opened_us,
         r.liq_proximity,
         r.source
  FROM open_positions_of(proto) r;

-- open_position_rows_of(proto) of alpha. No arguments.
CREATE OR REPLACE MACRO open_alpha_position_rows() AS TABLE SELECT * FROM open_position_rows_of('alpha');

-- Accounts of protocol `proto` in the API's Account shape (below), followed by the exact parts of their
-- volume and net PnL that the served doubles cannot give back past 2^53 micro-dollars (a whale's volume
-- is): `_volume_whole` = floor(volume_usd) and `_volume_micros` = its remaining micro-dollars
-- (0-999,999), the same for `_net_pnl_*` (floor, so the micros are never negative).
-- `GET /v1/alpha/accounts/stats`'s in-memory totals add these up exactly
-- (server/read/accounts/accounts-summary.ts); the `_` columns are held by `GET /v1/alpha/accounts/search`'s
-- snapshot and never served (server/read/accounts/account-table.ts).
-- Arguments: source, as alpha_account_shape's; proto, the protocol.
CREATE OR REPLACE MACRO account_held_of(source, proto) AS TABLE
  SELECT a.address,
       a.trades,
       a.wins,
       a.losses,
       a.win_rate,
       round(a.volume_usd, 6)::DOUBLE AS volume_usd,
       round(a.net_pnl_usd, 6)::DOUBLE AS net_pnl_usd,
       a.positions,
       a.open_positions,
       a.first_trade_at,
       a.last_trade_at,
       round(a.realized_pnl_usd, 6)::DOUBLE AS realized_pnl_usd,
       round(a.fees_usd, 6)::DOUBLE AS fees_usd,
       round(a.funding_fees_usd, 6)::DOUBLE AS funding_fees_usd,
       round(a.funding_earned_usd, 6)::DOUBLE AS funding_earned_usd,
       round(a.borrowing_fees_usd, 6)::DOUBLE AS borrowing_fees_usd,
       round(a.liquidation_fees_usd, 6)::DOUBLE AS liquidation_fees_usd,
       a.avg_leverage,
       a.max_leverage,
       round(a.avg_position_size_usd, 6) AS avg_position_size_usd,
       round(a.max_position_size_usd, 6)::DOUBLE AS max_position_size_usd,
       a.avg_position_duration_hours,
       round(a.open_notional_usd, 6)::DOUBLE AS open_notional_usd,
       a.markets_traded,
       a.market_variants_traded,
       floor(a.volume_usd)::BIGINT AS _volume_whole,
       ((a.volume_usd - floor(a.volume_usd)) * 1000000)::INTEGER AS _volume_micros,
       floor(a.net_pnl_usd)::BIGINT AS _net_pnl_whole,
       ((a.net_pnl_usd - floor(a.net_pnl_usd)) * 1000000)::INTEGER AS _net_pnl_micros
  FROM query_table(source) a
  WHERE a.protocol = proto;

-- account_held_of(source, proto) of alpha. Argument: source.
CREATE OR REPLACE MACRO alpha_account_held(source) AS TABLE SELECT * FROM account_held_of(source, 'alpha');

-- Alpha accounts in the API's Account shape (spec Account table, contract §6), shared by
-- `GET /v1/alpha/accounts/search` and `GET /v1/alpha/accounts/{address}`: USD amounts rounded to 6
-- decimals; leverage, win rate and duration not rounded; avg_position_duration_hours NULL while the
-- account has no closed lifecycle.
-- Argument: source, the name of a table shaped like `accounts` (accounts, or an append's
-- batch_accounts: sql/ingest/alpha-accounts-changed.sql).
CREATE OR REPLACE MACRO alpha_account_shape(source) AS TABLE
  SELECT * EXCLUDE (_volume_whole, _volume_micros, _net_pnl_whole, _net_pnl_micros)
  FROM alpha_account_held(source);

-- Every account of protocol `proto` in the Account shape (above). Argument: proto.
CREATE OR REPLACE MACRO accounts_of(proto) AS TABLE
  SELECT * EXCLUDE (_volume_whole, _volume_micros, _net_pnl_whole, _net_pnl_micros)
  FROM account_held_of('accounts', proto);

-- Every alpha account in the Account shape (above). No arguments.
CREATE OR REPLACE MACRO alpha_accounts() AS TABLE
  SELECT * FROM alpha_account_shape('accounts');

-- Alpha lifecycles in the API's Position-record History-row shape, shared by the account-history and position routes
-- (18 adds the live fields): USD rounded to 6 decimals, prices and leverage not; plus `last_seq`
-- (the lifecycle's last fill) for the callers' filters, which they then drop.
-- Argument: source, the name of a table shaped like `lifecycles` (lifecycles, history_index).
-- Filters on the output's columns reach the table scan as table filters.
CREATE OR REPLACE MACRO alpha_record_shape(source) AS TABLE
  SELECT
       l.protocol,
       l.position_id,
       l.market_variant,
       l.market,
       l.address,
       l.side,
       round(l.max_size_usd, 6)::DOUBLE AS max_size_usd,
       round(l.max_collateral_usd, 6)::DOUBLE AS max_collateral_usd,
       l.entry_price,
       l.opened_at,
       l.status,
       l.closed_at,
       l.exit_price,
       l.max_leverage,
       round(l.realized_pnl_usd, 6)::DOUBLE AS realized_pnl_usd,
       round(l.fees_usd, 6)::DOUBLE AS fees_usd,
       round(l.liquidation_fees_usd, 6)::DOUBLE AS liquidation_fees_usd,
       round(l.funding_fees_usd, 6)::DOUBLE AS funding_fees_usd,
       round(l.borrowing_fees_usd, 6)::DOUBLE AS borrowing_fees_usd,
       round(l.funding_earned_usd, 6)::DOUBLE AS funding_earned_usd,
       round(l.net_pnl_usd, 6)::DOUBLE AS net_pnl_usd,
       l.fill_count,
       l.open_tx,
       l.close_tx,
       l.last_seq
  FROM query_table(source) l;

-- The lifecycle store's record documents (server/read/lifecycles/lifecycle-store.ts): every lifecycle of
-- protocol `proto` with `GET /v1/{protocol}/positions/{address}/{id}`'s record as a compact JSON array in alpha_record_shape's column order without
-- last_seq (sql/read/lifecycles/store/record-columns.sql; opened_at / closed_at as epoch µs), beside the columns the
-- store files and orders it by, and `GET /v1/{protocol}/accounts/{address}/history`'s sort keys exactly as sql/read/lifecycles/alpha-account-history.sql
-- computes them (times as epoch µs, USD as the served 6-decimal doubles). One projection, so a
-- record's keys and its text cannot differ. Argument: proto; filters on the output reach the scan.
CREATE OR REPLACE MACRO record_docs(proto) AS TABLE
  SELECT r.position_id,
         r.address,
         r.market,
         r.market_variant,
         r.status,
         r.last_seq,
         epoch_us(r.opened_at)::DOUBLE AS opened_us,
         epoch_us(r.closed_at)::DOUBLE AS closed_us,
         r.max_size_usd,
         r.net_pnl_usd,
         r.max_leverage,
         json_array(*COLUMNS(* EXCLUDE (last_seq) REPLACE (epoch_us(opened_at) AS opened_at, epoch_us(closed_at) AS closed_at)))::VARCHAR AS doc
  FROM alpha_record_shape('lifecycles') r
  WHERE r.protocol = proto;

-- `GET /v1/{protocol}/positions/{address}/{id}/lifecycle`'s events (PositionEvent) of the fills of protocol `proto` with after_seq < seq <= upto_seq, each as a
-- compact JSON array for the lifecycle store (server/read/lifecycles/lifecycle-store.ts), which keeps them per
-- lifecycle and sorts, filters and pages them itself (server/read/lifecycles/lifecycle-timeline.ts):
-- [seq, time as epoch µs, type, size_delta_usd, position_size_usd, collateral_delta_usd, price,
--  entry_price, pnl_delta_usd, fee_usd, borrowing_fee_usd, funding_fee_usd, liquidation_fee_usd,
--  fee_total_usd, tx]: the values of sql/api/alpha-position-lifecycle.sql's columns (USD rounded to 6
-- decimals, prices not). Arguments: proto, after_seq, upto_seq (bound parameters: table filters on seq).
CREATE OR REPLACE MACRO timeline_docs(proto, after_seq, upto_seq) AS TABLE
  SELECT f.position_id,
         f.seq,
         json_array(f.seq, epoch_us(f.time), f.type,
           round(f.size_delta_usd, 6)::DOUBLE, round(f.position_size_usd, 6)::DOUBLE,
           round(f.collateral_delta_usd, 6)::DOUBLE, f.price, f.entry_price,
           round(f.pnl_delta_usd, 6)::DOUBLE, round(f.fee_usd, 6)::DOUBLE,
           round(f.borrowing_fee_usd, 6)::DOUBLE, round(f.funding_fee_usd, 6)::DOUBLE,
           round(f.liquidation_fee_usd, 6)::DOUBLE, round(f.fee_total_usd, 6)::DOUBLE, f.tx)::VARCHAR AS doc
  FROM fills f
  WHERE f.protocol = proto AND f.seq > after_seq AND f.seq <= upto_seq;

-- An address's closed and liquidated lifecycles of protocol `proto` in the History-row shape
-- (`/accounts/{address}/history`). Arguments: proto, of_address, mark, lo_ms, hi_ms. Without a scan
-- of `lifecycles`: the history read index (sql/schema/read-index.sql, both protocols, sorted by
-- address) up to `mark`, and `lifecycles` after it (its last rows: zone maps on last_seq skip the
-- rest), of those closed in [lo_ms, hi_ms) (epoch ms; mark 0 with the account's first and last fill
-- reads `lifecycles` alone, zone maps on closed_at skipping the rest). The arguments are bound
-- parameters in every use, so they reach the scans as table filters.
CREATE OR REPLACE MACRO closed_records_of(proto, of_address, mark, lo_ms, hi_ms) AS TABLE
  SELECT * EXCLUDE (last_seq) FROM alpha_record_shape('history_index')
  WHERE protocol = proto AND address = of_address AND last_seq <= mark
  UNION ALL
  SELECT * EXCLUDE (last_seq) FROM alpha_record_shape('lifecycles')
  WHERE protocol = proto AND address = of_address AND status IN ('closed', 'liquidated') AND last_seq > mark
    AND closed_at >= epoch_ms(lo_ms) AND closed_at < epoch_ms(hi_ms);

-- closed_records_of of alpha. Arguments: of_address, mark.
CREATE OR REPLACE MACRO alpha_closed_records(of_address, mark) AS TABLE SELECT * FROM closed_records_of('alpha', of_address, mark, 0, 253402300800000);

-- Macros these replaced; dropped so an old definition cannot linger in a state file.
DROP MACRO TABLE IF EXISTS alpha_lifecycle_records;
DROP MACRO TABLE IF EXISTS alpha_records;
DROP MACRO TABLE IF EXISTS alpha_record_docs;
DROP MACRO TABLE IF EXISTS alpha_timeline_docs;

-- Liquidation events of protocol `proto` exactly as `/liquidations/search` serves them (fields: contract §5; size_usd =
-- −size_delta_usd, collateral_usd = −collateral_delta_usd, pnl_usd = the fill's realized PnL before
-- fees, liquidation_fee_usd 0 when absent; USD rounded to 6 decimals, prices not), then time_ms and
-- seq (the cursor; the route strips them) and time_us (epoch µs, the in-memory index's sort key).
-- Shared by sql/api/alpha-liquidations-search.sql and alpha-liquidations-after.sql, so the SQL
-- answer and the in-memory one (server/read/liquidations/liquidation-index.ts) cannot drift apart. No arguments.
CREATE OR REPLACE MACRO liquidation_events_of(proto) AS TABLE
  SELECT time,
         position_id,
         protocol,
         market,
         market_variant,
         address,
         side,
         round(-size_delta_usd, 6)::DOUBLE AS size_usd,
         round(-collateral_delta_usd, 6)::DOUBLE AS collateral_usd,
         price,
         entry_price,
         round(pnl_delta_usd, 6)::DOUBLE AS pnl_usd,
         round(coalesce(liquidation_fee_usd, 0), 6)::DOUBLE AS liquidation_fee_usd,
         tx,
         epoch_ms(time) AS time_ms,
         seq,
         epoch_us(time)::DOUBLE AS time_us
  FROM liquidations
  WHERE protocol = proto;

-- liquidation_events_of of alpha. No arguments.
CREATE OR REPLACE MACRO alpha_liquidation_events() AS TABLE SELECT * FROM liquidation_events_of('alpha');
