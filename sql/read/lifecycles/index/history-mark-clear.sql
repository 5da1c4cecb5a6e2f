-- Drops the mark of the history read index (sql/schema/read-index.sql), before the new one is
-- set in the same transaction (server/read/lifecycles/history-index.ts). No parameters.
DELETE FROM history_index_mark;
