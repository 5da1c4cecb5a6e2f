-- Every open alpha position, for endpoint 16's in-memory search (server/http/open-positions-index.ts):
-- the Open-search row exactly as sql/api/alpha-open-positions-search.sql serves it (both through the
-- open_alpha_position_rows() macro, sql/schema/read-macros.sql), then what the search filters,
-- sorts and summarizes by that the row does not carry as served: opened_us (the opening time in
-- epoch µs, the SQL's sort value), liq_proximity, and source (poll / event / NULL). No parameters.
SELECT * EXCLUDE (size_exact, collateral_exact, pnl_exact)
FROM open_alpha_position_rows();
