-- Empties the history read index (sql/schema/read-index.sql; its mark: history-mark-clear.sql),
-- before a rebuild in the same transaction (server/read/lifecycles/history-index.ts). No parameters.
DELETE FROM history_index;
