-- Empties the fill rollups before a rebuild recomputes them from every fill at once
-- (server/derive/deferred-steps.ts): three statements, run as one script. No parameters.
DELETE FROM rollup_5m;
DELETE FROM rollup_1h;
DELETE FROM rollup_1d;
