-- The index price and time of the newest fill of every market variant (alpha) or market (beta):
-- the solana source's index price where no oracle account can be read. No parameters.
SELECT protocol, market, market_variant, arg_max(index_price, seq) AS index_price, epoch_ms(max(time)) AS time_ms
FROM fills
GROUP BY protocol, market, market_variant;
