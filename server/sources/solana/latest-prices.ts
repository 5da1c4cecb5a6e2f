/**
 * The latest oracle prices each alpha market's TradeEvents carried (index, long and short token,
 * min and max, unit prices at 20 decimals): the market-state poller's fallback where an oracle
 * account is missing or stale, and the backfill's market-state history rows.
 */
import type { TradeEvent } from './alpha-events.ts';

export class LatestPrices {
  private readonly byToken = new Map<string, TradeEvent['prices']>();
  record(ev: TradeEvent): void {
    this.byToken.set(ev.marketToken, ev.prices);
  }
  get(marketToken: string): TradeEvent['prices'] | undefined {
    return this.byToken.get(marketToken);
  }
}
