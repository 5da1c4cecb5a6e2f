-- Every open alpha position, for endpoint 16's in-memory search and endpoint 18's open lifecycles
-- (server/http/open-positions-index.ts): the Open-search row exactly as
-- sql/api/alpha-open-positions-search.sql serves it (both through the open_alpha_position_rows()
-- macro, sql/schema/read-macros.sql), then what the search filters, sorts and summarizes by that the
-- row does not carry as served: opened_us (the opening time in epoch µs, the SQL's sort value),
-- liq_proximity, and source (poll / event / NULL); then for endpoints 18 and 19: last_seq (the
-- lifecycle's last fill) and record, endpoint 18's record as sql/api/alpha-position.sql reads it
-- (alpha_record_shape, from open_lifecycles: the open rows of lifecycles). No parameters.
SELECT o.* EXCLUDE (size_exact, collateral_exact, pnl_exact),
       r.last_seq,
       struct_pack(*COLUMNS(r.* EXCLUDE (last_seq))) AS record
FROM open_alpha_position_rows() o
JOIN alpha_record_shape('open_lifecycles') r USING (position_id);
