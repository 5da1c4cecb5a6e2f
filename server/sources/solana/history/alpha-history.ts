/**
 * alpha's market snapshots before account polling began, rebuilt during the backfill from the
 * program's `MarketStateUpdated` events: each carries the full value of every pool, clock and
 * other state it updated, so a market's state is known again once the pools a snapshot needs
 * (open interest for both sides, borrowing factors) have been seen, without a starting state.
 * A market's row for minute m + 1 (its state at the start of that minute) is written once an
 * event of a later minute shows minute m closed. Rates use the market's config as its account
 * holds it now (config changes emit no event) and the latest TradeEvent prices.
 */
import type { MarketSnapshot } from '../../../journal/rows.ts';
import { log } from '../../../lib/log.ts';
import { POOL, type AlphaMarketAccount } from '../accounts/alpha-market.ts';
import { alphaPrice, bytesToHex } from '../units.ts';
import { eventInstructions, type RpcTransaction } from '../events.ts';
import type { SolanaRpc } from '../rpc.ts';
import { discoverAlphaMarkets } from '../state/chain-reads.ts';
import type { FundingPoint } from '../state/funding-integral.ts';
import { alphaMarketRow } from '../state/market-rows.ts';
import { applyMarketStateUpdated, decodeMarketStateUpdated, MARKET_STATE_UPDATED_DISCRIMINATOR, type MarketStateUpdated } from './market-state-updated.ts';
import { ALPHA_PROGRAM } from '../layout.ts';
import type { TokenDecimals } from '../tokens.ts';
import type { AlphaPrices } from '../alpha-events.ts';
import { MINUTE_MS } from '../../../lib/time.ts';

/** The pools a snapshot reads: both sides' open interest (USD and tokens) and the borrowing factors. */
const NEEDED = [POOL.openInterestForLong, POOL.openInterestForShort, POOL.openInterestInTokensForLong, POOL.borrowingFactor];

interface Tracked {
  market: AlphaMarketAccount;
  seen: Set<number>;
  /** the minute of the last event folded in */
  minute: number;
  funding?: FundingPoint;
}

export class AlphaMarketHistory {
  private readonly tracked = new Map<string, Tracked>();

  /**
   * @param accounts the markets as their accounts hold them now (config, token mints), by market token
   * @param decimals index-token decimals by mint (the source's TokenDecimals, or a Map in tests)
   */
  constructor(
    private readonly accounts: Map<string, AlphaMarketAccount>,
    private readonly decimals: Pick<TokenDecimals, 'get'>,
  ) {}

  /** Reads the store's markets (1 getProgramAccounts); index-token decimals come from `tokens`. */
  static async load(rpc: SolanaRpc, tokens: TokenDecimals): Promise<AlphaMarketHistory> {
    const markets = await discoverAlphaMarkets(rpc);
    return new AlphaMarketHistory(new Map(markets.map((m) => [m.marketTokenMint, m])), tokens);
  }

  /**
   * Folds the MarketStateUpdated events of a successful transaction at `timeMs` and returns the
   * rows of the minutes they closed. `prices` gives a market token's latest TradeEvent prices.
   */
  record(tx: RpcTransaction, timeMs: number, prices: (marketToken: string) => AlphaPrices | undefined): MarketSnapshot[] {
    if (tx.meta?.err) return [];
    const rows: MarketSnapshot[] = [];
    const minute = Math.floor(timeMs / MINUTE_MS) * MINUTE_MS;
    for (const { program, data } of eventInstructions(tx)) {
      if (program !== ALPHA_PROGRAM || bytesToHex(data.subarray(0, 8)) !== MARKET_STATE_UPDATED_DISCRIMINATOR) continue;
      let ev: MarketStateUpdated;
      try {
        ev = decodeMarketStateUpdated(data.subarray(8));
      } catch (err) {
        // history is a best effort beside the fills: one odd event never stops the backfill
        log.warn(`solana: transaction ${tx.transaction.signatures[0]}: ${(err as Error).message}; event skipped`);
        continue;
      }
      const base = this.accounts.get(ev.marketToken);
      if (!base) continue; // a market listed after start: the poller's discovery picks it up
      let t = this.tracked.get(ev.marketToken);
      if (!t) {
        t = { market: base, seen: new Set(), minute };
        this.tracked.set(ev.marketToken, t);
      }
      if (minute > t.minute) {
        const row = this.row(t, prices(ev.marketToken));
        if (row) rows.push(row);
      }
      t.market = applyMarketStateUpdated(t.market, ev);
      for (const p of ev.pools) t.seen.add(p.kind);
      t.minute = minute;
    }
    return rows;
  }

  /** The row at the start of the minute after `t.minute`, once the needed pools are known. */
  private row(t: Tracked, p: AlphaPrices | undefined): MarketSnapshot | undefined {
    const decimals = this.decimals.get(t.market.indexTokenMint);
    if (!p || decimals === undefined || !NEEDED.every((k) => t.seen.has(k))) return undefined;
    const stamp = t.minute + MINUTE_MS;
    const index = { usd: alphaPrice((p.index.min + p.index.max) / 2n, decimals), source: 'fill' as const, publishTime: stamp / 1000 };
    const r = alphaMarketRow(t.market, p, index, stamp, stamp / 1000, t.funding);
    if (!r) return undefined;
    t.funding = r.funding;
    return r.row;
  }
}
