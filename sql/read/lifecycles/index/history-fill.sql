-- Fills the history read index (sql/schema/read-index.sql) with every closed or liquidated
-- lifecycle of both protocols whose last fill is at or before $mark, in (address, position_id)
-- order: the insertion order is the storage order, which gives each row group a narrow address range.
-- Parameters: $mark BIGINT, the journal seq the derived state includes.
INSERT INTO history_index
SELECT * FROM lifecycles
WHERE status IN ('closed', 'liquidated') AND last_seq <= $mark::BIGINT
ORDER BY address, position_id;
