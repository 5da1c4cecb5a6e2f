-- On-chain position accounts of every open lifecycle: the solana source polls only positions the
-- journal holds open (a snapshot of another one would be dropped by the append path). No parameters.
SELECT protocol, position_key FROM lifecycles WHERE status = 'open';
