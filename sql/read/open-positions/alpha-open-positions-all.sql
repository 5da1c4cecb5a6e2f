-- Every open position of $protocol, for `GET /v1/{protocol}/open-positions/search`'s in-memory search and the position and lifecycle routes' open
-- lifecycles (server/read/open-positions/open-positions-index.ts): the Open-search row exactly as
-- sql/api/alpha-open-positions-search.sql serves it (both through the open_position_rows_of
-- macro, sql/schema/read-macros.sql), then what the search filters, sorts and summarizes by that the
-- row does not carry as served: opened_us (the opening time in epoch µs, the SQL's sort value),
-- liq_proximity, and source (poll / event / NULL); then for `GET /v1/{protocol}/positions/{address}/{id}/lifecycle`: last_seq and fill_count
-- of the lifecycle. Parameters: $protocol VARCHAR ('alpha' or 'beta': one set each).
-- Not the whole record of `GET /v1/{protocol}/positions/{address}/{id}` (sql/read/lifecycles/alpha-open-record.sql reads it per request): its
-- conversion made this load, which `GET /v1/{protocol}/open-positions/search` pays after every append, ~85 ms slower on the bench
-- journal's 3,404 open positions (70 → 155 ms).
SELECT o.* EXCLUDE (size_exact, collateral_exact, pnl_exact),
       l.last_seq,
       l.fill_count
FROM open_position_rows_of($protocol::VARCHAR) o
JOIN open_lifecycles l USING (position_id);
