-- The liquidation events of $protocol with seq > $after_seq, in seq order, each row exactly as
-- sql/api/alpha-liquidations-search.sql serves it (with its time_ms and seq), plus time_us (the
-- event time in epoch µs, the search's sort key): for `GET /v1/alpha/liquidations/search`'s in-memory index
-- (server/read/liquidations/liquidation-index.ts), which loads them all once, then those of each append. One
-- shape for both: the liquidation_events_of macro (sql/schema/read-macros.sql).
-- Parameters: $protocol VARCHAR ('alpha' or 'beta': one index each), $after_seq BIGINT (0: every event).
SELECT *
FROM liquidation_events_of($protocol::VARCHAR)
WHERE seq > $after_seq::BIGINT
ORDER BY seq;
