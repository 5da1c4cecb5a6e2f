-- Rows left in the snapshot staging tables after stale ones were dropped. No parameters.
SELECT (SELECT count(*) FROM batch_msnap)::INTEGER AS market, (SELECT count(*) FROM batch_psnap)::INTEGER AS position;
