-- Every lifecycle as an account change (sign 1), for a fold that computes the accounts once after
-- its last fill chunk (server/derive/deferred-steps.ts): with `accounts` cleared first,
-- sql/derive/accounts-stage.sql then sums each account from all of its lifecycles, by the same
-- statement the per-batch path adds its changes with. A view: nothing is copied. No parameters.
CREATE OR REPLACE TEMP VIEW account_changes AS
SELECT 1 AS sign, * FROM lifecycles;
