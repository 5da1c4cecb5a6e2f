-- Highest slot journaled per protocol (the dedup watermark of the append path). No parameters.
SELECT protocol, max(slot) AS slot FROM fills GROUP BY protocol;
