/**
 * Market snapshots and position polls from accounts, on a schedule: every `snapshotEveryMs`
 * (default a minute) one getMultipleAccounts batch reads alpha's Market and PriceFeed accounts and
 * beta's custodies and their oracle accounts, and appends one market snapshot row per market;
 * every `positionsEveryMs` (default 15 minutes) the Position accounts of both programs are read
 * and every position the journal holds open gets a `poll` snapshot. Discovery (which accounts)
 * runs hourly. One failed pass is logged and the next one tries again.
 */
import type { IncomingPositionSnapshot, MarketSnapshot, Protocol } from '../../../journal/rows.ts';
import { log } from '../../../lib/log.ts';
import type { Service } from '../../../service.ts';
import { decodeAlphaMarket, type AlphaMarketAccount } from '../accounts/alpha-market.ts';
import type { AlphaPositionAccount } from '../accounts/alpha-position.ts';
import { decodeBetaCustody, type BetaCustodyAccount } from '../accounts/beta-custody.ts';
import type { BetaPositionAccount } from '../accounts/beta-position.ts';
import { SOLANA_SOURCE } from '../backfill.ts';
import { waitOrAbort } from '../follow.ts';
import { BETA_CUSTODIES, BETA_SHORT_CUSTODY } from '../layout.ts';
import type { OwnedAccount, SolanaRpc } from '../rpc.ts';
import { alphaPositionState } from './alpha-position-state.ts';
import { betaPositionState } from './beta-position-state.ts';
import { tryDecode } from '../accounts/bytes.ts';
import { discover, readPositions, type Discovered } from './chain-reads.ts';
import type { FundingPoint } from './funding-integral.ts';
import { alphaMarketRow, betaMarketRow, type AlphaRow, type IndexPrice } from './market-rows.ts';
import { alphaModelPrices, alphaTokenFeed, betaOraclePrice, isFresh } from './prices.ts';
import type { AlphaPrices } from '../alpha-events.ts';
import { alphaPrice, microsToUsd } from '../units.ts';

export interface PollerOptions {
  snapshotEveryMs?: number;
  positionsEveryMs?: number;
  discoveryEveryMs?: number;
  /** epoch-ms clock (tests pin it) */
  now?: () => number;
}

/** Latest TradeEvent prices of an alpha market token (latest-prices.ts). */
export interface TradePrices {
  get(marketToken: string): AlphaPrices | undefined;
}

export class MarketStatePoller {
  private discovered: Discovered | undefined;
  private discoveredAt = -Infinity;
  private positionsAt = -Infinity;
  private readonly funding = new Map<string, FundingPoint>();
  private fundingSeeded = false;
  private betaOi = new Map<string, { longMicros: bigint; shortMicros: bigint }>();
  /** where each market's index price came from at the last snapshot (a change is logged) */
  readonly priceSource = new Map<string, IndexPrice['source']>();
  private readonly every: Required<Omit<PollerOptions, 'now'>>;
  private readonly now: () => number;

  constructor(
    private readonly service: Service,
    private readonly rpc: SolanaRpc,
    private readonly tradePrices: TradePrices,
    opts: PollerOptions = {},
  ) {
    this.every = { snapshotEveryMs: opts.snapshotEveryMs ?? 60_000, positionsEveryMs: opts.positionsEveryMs ?? 900_000, discoveryEveryMs: opts.discoveryEveryMs ?? 3_600_000 };
    this.now = opts.now ?? Date.now;
  }

  /** Runs passes on the schedule until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.pass();
      } catch (err) {
        log.error(`solana: market-state pass failed, trying again at the next one: ${(err as Error).message.split('\n')[0]}`);
      }
      const wait = this.every.snapshotEveryMs - (this.now() % this.every.snapshotEveryMs);
      await waitOrAbort(wait, signal);
    }
  }

  /** One pass: discovery when due, a market snapshot, a position poll when due; appended together. */
  async pass(): Promise<{ marketSnapshots: MarketSnapshot[]; positionSnapshots: IncomingPositionSnapshot[] }> {
    const nowMs = this.now();
    if (!this.discovered || nowMs - this.discoveredAt >= this.every.discoveryEveryMs) {
      this.discovered = await discover(this.rpc);
      this.discoveredAt = nowMs;
    }
    await this.seedFunding();
    const time = Math.floor(nowMs / 60_000) * 60_000;
    const nowSec = Math.floor(nowMs / 1000);
    const d = this.discovered;
    const feedKeys = [...d.alphaFeeds.values()].flat().concat([...d.alphaPythFeeds.values()].map((f) => f.address));
    const oracleKeys = d.betaCustodies.flatMap((c) => {
      const o = d.betaOracles.get(c);
      return o ? [o.ag, o.pyth] : [];
    });
    const keys = [...d.alphaMarkets, ...feedKeys, ...d.betaCustodies, ...oracleKeys];
    const accounts = new Map<string, OwnedAccount | null>();
    (await this.rpc.getMultipleAccounts(keys)).forEach((a, i) => accounts.set(keys[i]!, a));
    const get = (k: string) => accounts.get(k) ?? null;

    const markets = d.alphaMarkets.map((k) => tryDecode(decodeAlphaMarket, get(k), 'alpha Market')).filter((m): m is AlphaMarketAccount => m !== undefined);
    const custodies = new Map<string, BetaCustodyAccount>();
    for (const k of d.betaCustodies) {
      const c = tryDecode(decodeBetaCustody, get(k), 'beta Custody');
      if (c) custodies.set(k, c);
    }
    const feedOf = (mint: string) => alphaTokenFeed(mint, d, get, nowSec);
    let fills: Map<string, { price: number; timeMs: number }> | undefined;
    const fillPrices = async () => (fills ??= await this.latestFillPrices()); // read only when an oracle is missing

    let positions: { alpha: AlphaPositionAccount[]; beta: BetaPositionAccount[] } | undefined;
    if (nowMs - this.positionsAt >= this.every.positionsEveryMs) {
      positions = await readPositions(this.rpc);
      this.positionsAt = nowMs;
      this.betaOi = betaOpenInterest(positions.beta);
    }

    const marketSnapshots: MarketSnapshot[] = [];
    const alphaRows = new Map<string, { row: AlphaRow; prices: AlphaPrices; decimals: number | undefined }>();
    for (const m of markets) {
      const prices = alphaModelPrices(m, feedOf, d.alphaTokens, this.tradePrices.get(m.marketTokenMint), nowSec);
      const feed = feedOf(m.indexTokenMint);
      const decimals = d.alphaTokens.get(m.indexTokenMint)?.decimals;
      const index = await this.indexPrice('alpha', m.name, isFresh(feed, nowSec) ? feed : undefined, fillPrices, () =>
        prices && decimals !== undefined ? alphaPrice((prices.index.min + prices.index.max) / 2n, decimals) : undefined,
      );
      if (!prices || !index) {
        log.debug(`solana: alpha ${m.name}: no prices yet; no snapshot`);
        continue;
      }
      const r = alphaMarketRow(m, prices, index, time, nowSec, this.funding.get(m.name));
      if (!r) continue;
      this.funding.set(m.name, r.funding);
      alphaRows.set(m.marketTokenMint, { row: r, prices, decimals });
      marketSnapshots.push(r.row);
    }
    const shortCustody = custodies.get(BETA_SHORT_CUSTODY);
    for (const [address, c] of custodies) {
      const symbol = BETA_CUSTODIES[address];
      if (c.isStable || !symbol || !shortCustody) continue;
      const o = d.betaOracles.get(address);
      const oracle = o ? betaOraclePrice(get(o.ag), get(o.pyth), nowSec) : undefined;
      const index = await this.indexPrice('beta', `${symbol}-PERP`, oracle, fillPrices, () => undefined);
      if (!index) continue;
      const oi = this.betaOi.get(address) ?? { longMicros: 0n, shortMicros: 0n };
      marketSnapshots.push(betaMarketRow(symbol, c, shortCustody, index, oi, time, nowSec));
    }

    const positionSnapshots = positions ? await this.positionRows(positions, markets, alphaRows, custodies, marketSnapshots, time, nowSec) : [];
    if (marketSnapshots.length || positionSnapshots.length) {
      await this.service.append({ fills: [], marketSnapshots, positionSnapshots }, { source: SOLANA_SOURCE });
    }
    return { marketSnapshots, positionSnapshots };
  }

  /** The oracle's price when fresh, else the newest fill's (newer than a stale oracle), else the fallback. */
  private async indexPrice(
    protocol: Protocol,
    key: string,
    oracle: { usd: number; publishTime: number } | undefined,
    fills: () => Promise<Map<string, { price: number; timeMs: number }>>,
    fallback: () => number | undefined,
  ): Promise<IndexPrice | undefined> {
    const price = await this.pickIndexPrice(protocol, key, oracle, fills, fallback);
    const name = `${protocol} ${key}`;
    if (price && this.priceSource.get(name) !== price.source) {
      if (price.source === 'fill') log.warn(`solana: ${name}: no fresh oracle account; index price from the latest fill`);
      else if (this.priceSource.has(name)) log.info(`solana: ${name}: index price from its oracle account again`);
      this.priceSource.set(name, price.source);
    }
    return price;
  }

  private async pickIndexPrice(
    protocol: Protocol,
    key: string,
    oracle: { usd: number; publishTime: number } | undefined,
    fills: () => Promise<Map<string, { price: number; timeMs: number }>>,
    fallback: () => number | undefined,
  ): Promise<IndexPrice | undefined> {
    if (oracle) return { usd: oracle.usd, source: 'oracle', publishTime: oracle.publishTime };
    const f = (await fills()).get(`${protocol}:${key}`);
    if (f) return { usd: f.price, source: 'fill', publishTime: Math.floor(f.timeMs / 1000) };
    const usd = fallback();
    // the market's latest TradeEvent prices held in memory: a fill's price, of a time not kept
    return usd === undefined ? undefined : { usd, source: 'fill', publishTime: null };
  }

  private async latestFillPrices(): Promise<Map<string, { price: number; timeMs: number }>> {
    const out = new Map<string, { price: number; timeMs: number }>();
    for (const r of await this.service.db.query('solana/latest-fill-prices')) {
      const key = r.protocol === 'alpha' ? (r.market_variant as string) : (r.market as string);
      out.set(`${r.protocol as string}:${key}`, { price: Number(r.index_price), timeMs: Number(r.time_ms) });
    }
    return out;
  }

  /** Continues the integrated funding of every alpha market from the journal's latest snapshot (once). */
  private async seedFunding(): Promise<void> {
    if (this.fundingSeeded) return;
    for (const r of await this.service.db.query('solana/market-latest')) {
      if (r.protocol !== 'alpha' || typeof r.market_variant !== 'string') continue;
      this.funding.set(r.market_variant, {
        timeMs: Number(r.time_ms),
        fundingLong: Number(r.funding_long),
        fundingShort: Number(r.funding_short),
        paidLong: Number(r.cum_funding_paid_long),
        paidShort: Number(r.cum_funding_paid_short),
        earnedLong: Number(r.cum_funding_earned_long),
        earnedShort: Number(r.cum_funding_earned_short),
      });
    }
    this.fundingSeeded = true;
  }

  /** `poll` snapshots of the positions the journal holds open, marked at this snapshot's index prices. */
  private async positionRows(
    positions: { alpha: AlphaPositionAccount[]; beta: BetaPositionAccount[] },
    markets: AlphaMarketAccount[],
    alphaRows: Map<string, { row: AlphaRow; prices: AlphaPrices; decimals: number | undefined }>,
    custodies: Map<string, BetaCustodyAccount>,
    rows: MarketSnapshot[],
    time: number,
    nowSec: number,
  ): Promise<IncomingPositionSnapshot[]> {
    const open = new Set((await this.service.db.query('solana/open-position-keys')).map((r) => `${r.protocol as string}:${r.position_key as string}`));
    const out: IncomingPositionSnapshot[] = [];
    const byToken = new Map(markets.map((m) => [m.marketTokenMint, m]));
    for (const p of positions.alpha) {
      const m = byToken.get(p.marketToken);
      const r = alphaRows.get(p.marketToken);
      if (p.sizeInUsd === 0n || !open.has(`alpha:${p.address}`) || !m || !r) continue;
      if (r.decimals === undefined) {
        log.warn(`solana: alpha position ${p.address}: the token map gives no decimals for ${m.name}'s index token; not polled`);
        continue;
      }
      const s = alphaPositionState(p, m, r.prices, r.row.rates, nowSec, r.decimals);
      out.push(snapshot('alpha', p.address, time, s.sizeMicros, s.collateralMicros, s.borrowingMicros, s.fundingMicros, s.claimableMicros, r.row.row.index_price, s.liquidationPrice));
    }
    const betaIndex = new Map(rows.filter((r) => r.protocol === 'beta').map((r) => [r.market, r.index_price]));
    for (const p of positions.beta) {
      const c = custodies.get(p.custody);
      const cc = custodies.get(p.collateralCustody);
      const mark = betaIndex.get(`${BETA_CUSTODIES[p.custody]}-PERP`);
      if (p.sizeUsd === 0n || !open.has(`beta:${p.address}`) || !c || !cc || mark === undefined) continue;
      const s = betaPositionState(p, c, cc, nowSec);
      out.push(snapshot('beta', p.address, time, s.sizeMicros, s.collateralMicros, s.borrowingMicros, 0n, 0n, mark, s.liquidationPrice));
    }
    return out;
  }
}

function snapshot(
  protocol: Protocol,
  key: string,
  time: number,
  size: bigint,
  coll: bigint,
  borrow: bigint,
  funding: bigint,
  claimable: bigint,
  mark: number,
  liq: number | null,
): IncomingPositionSnapshot {
  return {
    time,
    protocol,
    position_key: key,
    size_usd: microsToUsd(size),
    collateral_usd: microsToUsd(coll),
    unsettled_borrowing_usd: microsToUsd(borrow),
    unsettled_funding_usd: microsToUsd(funding),
    claimable_funding_usd: microsToUsd(claimable),
    mark_price: mark,
    liquidation_price: liq,
    source: 'poll',
  };
}

/** beta open interest per custody (the traded one) and side, from every open Position account. */
export function betaOpenInterest(positions: readonly BetaPositionAccount[]): Map<string, { longMicros: bigint; shortMicros: bigint }> {
  const out = new Map<string, { longMicros: bigint; shortMicros: bigint }>();
  for (const p of positions) {
    if (p.sizeUsd === 0n) continue;
    const o = out.get(p.custody) ?? { longMicros: 0n, shortMicros: 0n };
    if (p.isLong) o.longMicros += p.sizeUsd;
    else o.shortMicros += p.sizeUsd;
    out.set(p.custody, o);
  }
  return out;
}
