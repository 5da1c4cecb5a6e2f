-- Records the mark of the history read index (sql/schema/read-index.sql): it holds every closed
-- alpha lifecycle with last_seq <= $mark. Parameters: $mark BIGINT.
INSERT INTO alpha_history_index_mark VALUES ($mark::BIGINT);
