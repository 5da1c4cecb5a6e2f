-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/accounts/stats`: the exact totals over every alpha account that the
-- AccountsSummary is computed from (server/read/accounts/accounts-summary.ts, which also keeps the same
-- totals in memory with `GET /v1/alpha/accounts/search`'s snapshot). No parameters.
-- Sums of DECIMAL(38,6) come back as text (exact past 2^53); `win_rate_units` is Σ win_rate × 2^84
-- over accounts with a trade: a win rate is wins / trades with trades < 2^31, a double whose last
-- bit is worth at least 2^-84, so each term is an exact integer and the sum is exact.
-- An empty protocol gives zeros.
SELECT count(*)::BIGINT AS accounts,
       count(*) FILTER (WHERE open_positions > 0)::BIGINT AS with_open_positions,
       coalesce(sum(positions), 0)::BIGINT AS positions,
       coalesce(sum(open_positions), 0)::BIGINT AS open_positions,
       coalesce(sum(volume_usd), 0)::VARCHAR AS volume_usd,
       coalesce(sum(net_pnl_usd) FILTER (WHERE net_pnl_usd > 0), 0)::VARCHAR AS profits_usd,
       coalesce(sum(net_pnl_usd) FILTER (WHERE net_pnl_usd < 0), 0)::VARCHAR AS losses_usd,
       count(*) FILTER (WHERE trades > 0)::BIGINT AS traded,
       coalesce(sum((win_rate * 2^84)::HUGEINT) FILTER (WHERE trades > 0), 0)::VARCHAR AS win_rate_units
FROM accounts
WHERE protocol = $protocol::VARCHAR;
