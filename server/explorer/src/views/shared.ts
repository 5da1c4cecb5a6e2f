/** Record shapes the views read (the API's field names) and the markets list both views use. */
import { get } from '../api.ts';
import { base, type Protocol } from '../context.ts';

export interface MarketRow {
  market: string;
  market_variant: string | null;
  index_price: number;
  open_interest_long_usd: number;
  open_interest_short_usd: number;
  funding_rate_long: number;
  funding_rate_short: number;
  volume_24h_usd: number;
  fees_24h_usd: number;
  liquidations_24h_usd: number;
}

export interface Fill {
  seq?: number;
  time: string;
  type: 'open' | 'increase' | 'decrease' | 'close' | 'liquidation';
  size_delta_usd: number;
  position_size_usd: number;
  collateral_delta_usd: number;
  price: number;
  entry_price?: number;
  pnl_delta_usd?: number;
  fee_usd: number;
  fee_total_usd?: number;
  tx: string;
  protocol?: string;
  position_id?: number;
  address?: string;
  market?: string;
  market_variant?: string | null;
  side?: 'long' | 'short';
}

/** Every market row of a protocol (per variant for alpha, per market for beta). */
export async function marketRows(protocol: Protocol): Promise<MarketRow[]> {
  return (await get<{ data: MarketRow[] }>(`${base(protocol)}/markets/stats`)).data;
}
