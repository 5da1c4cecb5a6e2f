-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- The cache bound of a history answer whose window moves with the clock (server/http/history-validity.ts):
-- the first alpha fill in each of two short ranges, epoch ms (NULL when none): `enter` in
-- [$enter_lo, $enter_hi) (the first fill the window's end would take in), `leave` in
-- [$leave_lo, $leave_hi) (the first fill its start would drop). Each range is one bound range on
-- `time`, so zone maps skip the rest of the table.
-- Parameters: $market VARCHAR or NULL (NULL = every alpha variant); $enter_lo, $enter_hi,
-- $leave_lo, $leave_hi BIGINT epoch ms (lo >= hi: an empty range).
SELECT (SELECT epoch_ms(min(time)) FROM fills
        WHERE protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR market = $market::VARCHAR)
          AND time >= epoch_ms($enter_lo::BIGINT) AND time < epoch_ms($enter_hi::BIGINT))::DOUBLE AS enter,
       (SELECT epoch_ms(min(time)) FROM fills
        WHERE protocol = $protocol::VARCHAR AND ($market::VARCHAR IS NULL OR market = $market::VARCHAR)
          AND time >= epoch_ms($leave_lo::BIGINT) AND time < epoch_ms($leave_hi::BIGINT))::DOUBLE AS leave;
