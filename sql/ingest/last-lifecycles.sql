-- The newest lifecycle of each of several position accounts: for the snapshots of a batch whose
-- key is not in memory (server/ingest/assign-snapshots.ts), one scan of `lifecycles` for all of
-- them instead of one per snapshot (a restart's first batch re-sent thousands: ~70 ms each on the
-- bench journal, minutes in all). Keys the derived state does not know give no row.
-- Parameters: $keys VARCHAR, a JSON array of {"protocol", "position_key"} objects.
SELECT l.protocol, l.position_key, max(l.position_id) AS id
FROM lifecycles l
SEMI JOIN (
  SELECT unnest(from_json($keys, '[{"protocol":"VARCHAR","position_key":"VARCHAR"}]'), recursive := true)
) k ON k.protocol = l.protocol AND k.position_key = l.position_key
GROUP BY l.protocol, l.position_key;
