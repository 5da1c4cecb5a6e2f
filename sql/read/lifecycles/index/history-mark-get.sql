-- The mark of the history read index (sql/schema/read-index.sql), 0 when it was never built,
-- and how many closed lifecycles of both protocols lie after it (the tail its reads scan in
-- `lifecycles`; those rows were written last, so zone maps on last_seq keep that scan short).
-- No parameters.
WITH mark AS (SELECT coalesce(max(last_seq), 0) AS m FROM history_index_mark)
SELECT (SELECT m FROM mark)::DOUBLE AS mark,
       (SELECT count(*) FROM lifecycles
        WHERE status IN ('closed', 'liquidated') AND last_seq > (SELECT m FROM mark))::DOUBLE AS tail;
