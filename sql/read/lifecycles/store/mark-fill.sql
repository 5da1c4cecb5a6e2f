-- The tx of the last fill at or before $mark: the lifecycle store's check that its files belong to
-- this journal (server/read/lifecycles/lifecycle-store.ts). No row: no fill yet.
-- Parameters: $mark BIGINT.
SELECT tx FROM fills WHERE seq <= $mark::BIGINT ORDER BY seq DESC LIMIT 1;
