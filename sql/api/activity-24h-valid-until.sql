-- The 24 h stats' cache bound (`GET /v1/protocols/stats`, `GET /v1/alpha/markets/stats` and
-- `GET /v1/beta/markets/stats`; server/http/activity-validity.ts): until when (epoch ms, inclusive) the
-- window [now - 24 h, now) of the activity_24h macro holds exactly the fills it holds at $now. A fill
-- at time f is in the window iff now - 24 h <= f < now, so the set changes first when the oldest fill
-- in it leaves (now = f + 24 h + 1 ms) or the first fill at or after $now enters (now = f + 1 ms). NULL
-- when neither can happen (no fill in or after the window): then only an append changes it. Fill times
-- are whole milliseconds (staging makes them from epoch ms); epoch_ms floors, which keeps the bound
-- safe for any finer time.
-- Every fill counts, whatever its protocol or market: a bound that is too early only costs a miss.
-- Parameters: $now BIGINT, epoch ms (the service clock the stats were computed at).
SELECT least(epoch_ms(min(time) FILTER (WHERE time < epoch_ms($now::BIGINT))) + 86400000,
             epoch_ms(min(time) FILTER (WHERE time >= epoch_ms($now::BIGINT))))::DOUBLE AS valid_until
FROM fills
WHERE time >= epoch_ms($now::BIGINT - 86400000);
