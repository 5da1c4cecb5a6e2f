-- Inserts the accounts the batch changes, as accounts-stage.sql computed them. No parameters.
INSERT INTO accounts
SELECT * FROM batch_accounts
ORDER BY address;  -- zone maps on address
