-- The open lifecycle of every on-chain position account (loaded at start-up). No parameters.
SELECT protocol, position_key, position_id FROM lifecycles WHERE status = 'open';
