-- Dedup against the journal: the ord_row of every staged fill key (batch_keys) that the derived
-- `fills` table already holds. A tx has one slot, so only fills in the keys' slot range can match
-- (zone maps skip the rest). Repeats within a batch are found before staging. No parameters.
SELECT k.ord_row
FROM batch_keys k
SEMI JOIN (SELECT protocol, tx, event_index FROM fills
           WHERE slot BETWEEN (SELECT min(slot) FROM batch_keys) AND (SELECT max(slot) FROM batch_keys)) f
  ON f.protocol = k.protocol AND f.tx = k.tx AND f.event_index = k.event_index;
