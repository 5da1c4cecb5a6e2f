-- Records the mark of the history read index (sql/schema/read-index.sql): it holds every closed
-- lifecycle of both protocols with last_seq <= $mark. Parameters: $mark BIGINT.
INSERT INTO history_index_mark VALUES ($mark::BIGINT);
