-- Every open alpha position, for the in-memory search of `GET /v1/alpha/open-positions/search` and
-- the open lifecycles of position detail and timeline (`GET /v1/alpha/positions/{address}/{id}`,
-- `…/lifecycle`) (server/http/open-positions-index.ts): the Open-search row exactly as
-- sql/api/alpha-open-positions-search.sql serves it (both through the open_alpha_position_rows() macro,
-- sql/schema/read-macros.sql), then what the search filters, sorts and summarizes by that the row does
-- not carry as served: opened_us (the opening time in epoch µs, the SQL's sort value), liq_proximity,
-- and source (poll / event / NULL); then for `GET /v1/alpha/positions/{address}/{id}/lifecycle`:
-- last_seq and fill_count of the lifecycle. No parameters.
-- Not the whole record of `GET /v1/alpha/positions/{address}/{id}` (sql/api/alpha-open-record.sql reads
-- it per request): its conversion would double the time of this load, which
-- `GET /v1/alpha/open-positions/search` pays after every append (docs/performance.md, "Rows from
-- result chunks").
SELECT o.* EXCLUDE (size_exact, collateral_exact, pnl_exact),
       l.last_seq,
       l.fill_count
FROM open_alpha_position_rows() o
JOIN open_lifecycles l USING (position_id);
