-- Copies the latest position snapshot of every lifecycle the staged fills touch that is open after
-- them (open-lifecycles-insert.sql ran before) into open_position_latest. No parameters.
INSERT INTO open_position_latest
SELECT p.* FROM position_latest p
WHERE p.position_id IN (
  SELECT o.position_id FROM open_lifecycles o
  WHERE o.position_id IN (SELECT DISTINCT position_id FROM batch_fills));
