-- Empties endpoint 15's read index and its mark (sql/schema/read-index.sql), before a rebuild in
-- the same transaction (server/http/history-index.ts). No parameters.
DELETE FROM alpha_history_index;
