-- The history read index of the account-history and position routes (server/read/lifecycles/history-index.ts): every closed or
-- liquidated lifecycle of both protocols whose last fill is at or before the index's mark, in
-- (address, position_id) order, so that zone maps on `address` narrow one account's read to a row
-- group or two instead of a scan of every lifecycle. Closed lifecycles never change, so the index
-- plus the closed lifecycles after the mark (a short tail at the end of `lifecycles`) are exactly
-- the closed ones. Not derived state (outside the derive fingerprint, not compared by the rebuild
-- tests): rebuilt from `lifecycles` alone; an empty index has mark 0 and every read comes from
-- `lifecycles`. Its columns follow `lifecycles` (a new derived schema is a new state file).
-- The alpha-only tables it replaced are dropped, so a state file that held them rebuilds it.
-- Idempotent; no parameters.
DROP TABLE IF EXISTS alpha_history_index;
DROP TABLE IF EXISTS alpha_history_index_mark;
CREATE TABLE IF NOT EXISTS history_index AS SELECT * FROM lifecycles LIMIT 0;
CREATE TABLE IF NOT EXISTS history_index_mark (last_seq BIGINT NOT NULL);
