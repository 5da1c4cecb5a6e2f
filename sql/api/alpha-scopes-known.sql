-- $protocol VARCHAR: the protocol served ('alpha' or 'beta'; every endpoint of both runs this file).
-- Every market symbol and market variant known to alpha (has fills or a market snapshot), read
-- once per process to seed the known scopes of server/http/scope.ts (see alpha-scope-known.sql
-- for the check of one scope). No parameters.
SELECT DISTINCT market, market_variant FROM markets WHERE protocol = $protocol::VARCHAR
UNION
SELECT DISTINCT market, market_variant FROM market_latest WHERE protocol = $protocol::VARCHAR;
