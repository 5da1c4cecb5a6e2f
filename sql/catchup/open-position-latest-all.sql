-- A fresh rebuild's open_position_latest once position_latest holds every lifecycle's newest
-- snapshot (sql/catchup/position-latest-all.sql) and open_lifecycles is final (the fill chunks
-- come first): the rows the per-batch open-position-latest-snap-*.sql steps end with.
-- open_position_latest must be empty (position_latest was, while the fill chunks ran). No parameters.
INSERT INTO open_position_latest
SELECT p.* FROM position_latest p
WHERE p.position_id IN (SELECT position_id FROM open_lifecycles);
