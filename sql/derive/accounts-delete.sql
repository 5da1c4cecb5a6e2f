-- Drops the accounts the batch changes (accounts-stage.sql made their new rows). No parameters.
DELETE FROM accounts a
WHERE EXISTS (SELECT 1 FROM batch_accounts b WHERE b.protocol = a.protocol AND b.address = a.address);
