/**
 * Market snapshot rows (the journal's shape, server/journal/rows.ts) from decoded accounts:
 * alpha from its Market account and prices, beta from a market's custody and the stable custody
 * its shorts post. Pure functions: the poller (poller.ts) reads the accounts.
 */
import type { MarketSnapshot } from '../../../journal/rows.ts';
import { cumulativeBorrowingFactor, openInterest, type AlphaMarketAccount } from '../accounts/alpha-market.ts';
import type { BetaCustodyAccount } from '../accounts/beta-custody.ts';
import { parseMarketName } from '../decode-alpha.ts';
import { alphaHourlyRates, type AlphaHourlyRates } from './alpha-rates.ts';
import { cumulativeInterestAt, hourlyBorrowRate } from './beta-rates.ts';
import { ALPHA_USD_DECIMALS } from '../layout.ts';
import { usdMicros, microsToUsd } from '../units.ts';
import { advanceFunding, type FundingPoint } from './funding-integral.ts';
import type { AlphaPrices } from '../alpha-events.ts';

/** Where a row's index price came from: an oracle account, or the latest fill (no oracle readable). */
export interface IndexPrice {
  usd: number;
  source: 'oracle' | 'fill';
  /** the oracle's own publish time (unix s), or the fill's time; null when not known */
  publishTime: number | null;
}

export interface AlphaRow {
  row: MarketSnapshot;
  rates: AlphaHourlyRates;
  funding: FundingPoint;
}

/** The snapshot of one alpha market at `timeMs` (the model evaluated at `nowSec`). */
export function alphaMarketRow(m: AlphaMarketAccount, prices: AlphaPrices, index: IndexPrice, timeMs: number, nowSec: number, prev?: FundingPoint): AlphaRow | null {
  const symbols = parseMarketName(m.name);
  const market = symbols ? `${symbols.index}-PERP` : null;
  if (!market) return null;
  const rates = alphaHourlyRates(m, prices, nowSec);
  const funding = advanceFunding(prev, timeMs, rates.fundingLong, rates.fundingShort);
  const sinceBorrow = BigInt(Math.max(0, nowSec - m.borrowingClock));
  const cum = (isLong: boolean) => Number(cumulativeBorrowingFactor(m, isLong) + (isLong ? rates.borrowingPerSecond.long : rates.borrowingPerSecond.short) * sinceBorrow) / 1e20;
  return {
    rates,
    funding,
    row: {
      time: timeMs,
      protocol: 'alpha',
      market,
      market_variant: m.name,
      index_price: index.usd,
      oi_long_usd: microsToUsd(usdMicros(openInterest(m, true), ALPHA_USD_DECIMALS)),
      oi_short_usd: microsToUsd(usdMicros(openInterest(m, false), ALPHA_USD_DECIMALS)),
      funding_rate_long: rates.fundingLong - rates.borrowingLong,
      funding_rate_short: rates.fundingShort - rates.borrowingShort,
      borrowing_rate_long: rates.borrowingLong,
      borrowing_rate_short: rates.borrowingShort,
      funding_rate_raw: rates.fundingRaw,
      cum_borrowing_long: cum(true),
      cum_borrowing_short: cum(false),
      cum_funding_paid_long: funding.paidLong,
      cum_funding_paid_short: funding.paidShort,
      cum_funding_earned_long: funding.earnedLong,
      cum_funding_earned_short: funding.earnedShort,
      ...indexColumns(index),
    },
  };
}

/**
 * The snapshot of one beta market: longs borrow from (and post collateral in) the market's own
 * custody, shorts from the stable custody; served rates are minus the hourly borrow rates; the
 * cumulative borrowing columns are the custodies' interest indices (per $1 of size). Open
 * interest comes from the Position accounts (the custody holds no long size in USD).
 */
export function betaMarketRow(
  symbol: string,
  custody: BetaCustodyAccount,
  shortCustody: BetaCustodyAccount,
  index: IndexPrice,
  oi: { longMicros: bigint; shortMicros: bigint },
  timeMs: number,
  nowSec: number,
): MarketSnapshot {
  const long = Number(hourlyBorrowRate(custody)) / 1e9;
  const short = Number(hourlyBorrowRate(shortCustody)) / 1e9;
  return {
    time: timeMs,
    protocol: 'beta',
    market: `${symbol}-PERP`,
    market_variant: null,
    index_price: index.usd,
    oi_long_usd: microsToUsd(oi.longMicros),
    oi_short_usd: microsToUsd(oi.shortMicros),
    funding_rate_long: long === 0 ? 0 : -long,
    funding_rate_short: short === 0 ? 0 : -short,
    borrowing_rate_long: long,
    borrowing_rate_short: short,
    funding_rate_raw: 0,
    cum_borrowing_long: Number(cumulativeInterestAt(custody, nowSec)) / 1e9,
    cum_borrowing_short: Number(cumulativeInterestAt(shortCustody, nowSec)) / 1e9,
    cum_funding_paid_long: 0,
    cum_funding_paid_short: 0,
    cum_funding_earned_long: 0,
    cum_funding_earned_short: 0,
    ...indexColumns(index),
  };
}

/** The row's record of where its index price came from and when it was published (epoch ms). */
function indexColumns(index: IndexPrice): Pick<MarketSnapshot, 'index_price_time' | 'index_price_source'> {
  return { index_price_time: index.publishTime === null ? null : index.publishTime * 1000, index_price_source: index.source };
}
