/** The records of the protocol routes: `GET /v1/protocols` and `GET /v1/protocols/stats`. */
import * as v from 'valibot';
import { count, described, protocolId, usdNonNegative } from './scalars.ts';

/** ProtocolInfo (GET /v1/protocols). */
export const ProtocolInfo = v.strictObject({
  id: described(protocolId, 'Protocol identifier used in paths and in the `protocol` field: alpha or beta.'),
  name: described(v.string(), 'Display name of the protocol.'),
  chain: described(v.string(), 'Chain the protocol runs on (solana).'),
});

/** ProtocolOverview (GET /v1/protocols/stats). */
export const ProtocolOverview = v.strictObject({
  protocol: described(protocolId, 'Protocol identifier: alpha or beta.'),
  open_interest_usd: described(usdNonNegative, 'Current open interest across all markets, long plus short, in USD.'),
  volume_24h_usd: described(usdNonNegative, 'Traded notional over the trailing 24 hours, in USD (liquidations excluded).'),
  fees_24h_usd: described(usdNonNegative, 'Trading fees over the trailing 24 hours, in USD; excludes funding and borrowing charges.'),
  liquidations_24h_usd: described(usdNonNegative, 'Liquidated notional over the trailing 24 hours, in USD.'),
  markets: described(count, 'Number of distinct active market symbols.'),
});
