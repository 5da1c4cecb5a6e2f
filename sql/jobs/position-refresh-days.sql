-- UTC days (YYYY-MM-DD) whose market snapshots the position refresh needs: those of each open
-- lifecycle's last fill and latest position snapshot (and the day before, for a time in the
-- first minute of a day). No parameters.
WITH t AS (
  SELECT l.last_fill_at AS t FROM lifecycles l WHERE l.status = 'open'
  UNION ALL
  SELECT p.time FROM lifecycles l JOIN position_latest p ON p.position_id = l.position_id WHERE l.status = 'open'
)
SELECT DISTINCT strftime(d, '%Y-%m-%d') AS day
FROM (SELECT t::DATE AS d FROM t UNION SELECT (t - INTERVAL 1 MINUTE)::DATE FROM t)
ORDER BY day;
