-- The derive_version the derived state was built with (no row: a new or pre-versioning database).
-- No parameters.
SELECT value FROM meta WHERE key = 'derive_version';
