-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- `GET /v1/alpha/liquidations/search`'s anchor (server/http/routes/liquidations.ts): the time of the
-- newest alpha liquidation, epoch ms (NULL when none). Read once per process. No parameters.
SELECT epoch_ms(max(time)) AS time_ms FROM liquidations WHERE protocol = $protocol::VARCHAR;
