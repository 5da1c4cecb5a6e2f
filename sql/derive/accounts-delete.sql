-- Drops the accounts the staged batch touches (recomputed next). No parameters.
DELETE FROM accounts a
WHERE EXISTS (SELECT 1 FROM batch_fills b WHERE b.protocol = a.protocol AND b.address = a.address);
