-- GET /health: the journal position the derived state includes and the time of the fill at it
-- (how fresh the data is). Both come from one snapshot of the derived state; `fills` is stored
-- in seq order, so zone maps make the lookup one row group. last_fill_time is null on an empty
-- journal. No parameters.
WITH mark AS (SELECT value::BIGINT AS seq FROM meta WHERE key = 'derived_seq')
SELECT (SELECT seq FROM mark) AS derived_seq,
       (SELECT time FROM fills WHERE seq = (SELECT seq FROM mark)) AS last_fill_time;
