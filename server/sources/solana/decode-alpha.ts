/**
 * alpha (GMX-Solana): Market accounts → market names and mints; a TradeEvent (the source of
 * truth for a fill), with the PositionIncreased / PositionDecreased of the same instruction when
 * there is one, → one journal fill. USD values (× 1e20) and token amounts are converted in
 * integers; collateral and token-denominated fees are valued at the token's min oracle price of
 * the event, as the program values collateral.
 */
import type { FillType, IncomingFill } from '../../journal/rows.ts';
import type { PositionReport, TradeEvent } from './alpha-events.ts';
import { bytesToBase58 } from './base58.ts';
import { PositionChain, type PositionRunning } from './chain.ts';
import { ALPHA_MARKET, ALPHA_USD_DECIMALS, TRADE_FLAGS } from './layout.ts';
import { divRound } from '../../db/exact-ratio.ts';
import { alphaMidPrice, alphaPrice, bytesToHex, microsToUsd, scaledToNumber, tokenValueMicros, usdMicros, usdOrNull } from './units.ts';

/** An alpha market as its account names it: `{INDEX}/USD[{LONG}-{SHORT}]`, with its mints. */
export interface AlphaMarket {
  marketToken: string;
  name: string;
  index: string;
  long: string;
  short: string;
  indexMint: string;
  longMint: string;
  shortMint: string;
}

const NAME_RE = /^([A-Za-z0-9.]+)\/USD\[([A-Za-z0-9.]+)-([A-Za-z0-9.]+)\]$/;

/** The symbols of a market name; null when it does not have the `{INDEX}/USD[{LONG}-{SHORT}]` shape. */
export function parseMarketName(name: string): { index: string; long: string; short: string } | null {
  const m = NAME_RE.exec(name);
  return m ? { index: m[1]!, long: m[2]!, short: m[3]! } : null;
}

/** A Market account's name, market token and mints (accounts.md §1); null for another account type. */
export function decodeMarketAccount(data: Uint8Array): { name: string; marketToken: string; indexMint: string; longMint: string; shortMint: string } | null {
  const M = ALPHA_MARKET;
  if (data.length < M.minLength || bytesToHex(data.subarray(0, 8)) !== M.disc) return null;
  const raw = data.subarray(M.name, M.name + 64);
  const end = raw.indexOf(0);
  const key = (at: number) => bytesToBase58(data.subarray(at, at + 32));
  return {
    name: new TextDecoder().decode(end < 0 ? raw : raw.subarray(0, end)),
    marketToken: key(M.marketToken),
    indexMint: key(M.indexToken),
    longMint: key(M.longToken),
    shortMint: key(M.shortToken),
  };
}

/** What a TradeEvent needs from the rest of its transaction and from the indexer's state. */
export interface AlphaFillContext {
  tx: string;
  slot: number;
  eventIndex: number;
  market: AlphaMarket;
  /** decimals of the market's index, long and short tokens (from the chain) */
  decimals: { index: number; long: number; short: number };
  /** the PositionIncreased / PositionDecreased of the same instruction, when paired */
  report?: PositionReport;
  /** the fill is a liquidation (liquidation fees in its report, or the `liquidate` instruction) */
  liquidation: boolean;
  /** this position's open lifecycle before the fill, if the indexer knows it */
  running?: PositionRunning;
}

/** The program's average entry of a position state: USD per whole index token, the quotient
 * taken in integers to 20 decimals and only then made a number (an entry of 125 is 125). */
function programEntry(sizeInUsd: bigint, sizeInTokens: bigint, indexDecimals: number): number {
  if (sizeInTokens === 0n) return 0;
  return scaledToNumber(divRound(sizeInUsd * 10n ** BigInt(indexDecimals), sizeInTokens), 20);
}

const nullIfZero = (x: number): number | null => (x === 0 ? null : x);

/** Micro-dollars of a USD value with 20 decimals. */
const usd20 = (raw: bigint): bigint => usdMicros(raw, ALPHA_USD_DECIMALS);

/**
 * The fill of one TradeEvent. Size and PnL are the event's USD values; the trading fee is the
 * report's order fee value (USD) when paired, else the order fee amounts valued at the collateral
 * token's min price; borrowing and funding are token amounts valued the same way; the liquidation
 * fee is the report's USD value when it has liquidation fees.
 */
export function alphaFill(ev: TradeEvent, ctx: AlphaFillContext): IncomingFill {
  const { market, decimals } = ctx;
  const long = (ev.flags & TRADE_FLAGS.isLong) !== 0;
  const collIsLong = (ev.flags & TRADE_FLAGS.collateralIsLong) !== 0;
  const collToken = collIsLong ? market.long : market.short;
  const collPrice = collIsLong ? ev.prices.long.min : ev.prices.short.min;
  const value = (amount: bigint) => tokenValueMicros(amount, collPrice);

  const sizeBefore = usd20(ev.before.sizeInUsd);
  const sizeAfter = usd20(ev.after.sizeInUsd);
  const delta = sizeAfter - sizeBefore;
  const collAfter = sizeAfter === 0n ? 0n : value(ev.after.collateralAmount);
  const prev = sizeBefore === 0n ? 0n : (ctx.running?.collateralMicros ?? value(ev.before.collateralAmount));

  const f = ev.fees;
  const r = ctx.report;
  const fee = r ? usd20(r.orderFeeValue) : value(f.orderFeeForReceiver + f.orderFeeForPool);
  const borrow = value(f.totalBorrowingFee);
  const funding = value(f.fundingFee);
  const liq = r?.liquidation ? usd20(r.liquidation.feeValue) : value(f.liquidationFee);
  const earned = tokenValueMicros(f.claimableFundingLong, ev.prices.long.min) + tokenValueMicros(f.claimableFundingShort, ev.prices.short.min);

  let type: FillType;
  if (sizeBefore === 0n) type = 'open';
  else if (sizeAfter === 0n) type = ctx.liquidation ? 'liquidation' : 'close';
  else if (delta !== 0n) type = delta > 0n ? 'increase' : 'decrease';
  else type = ev.flags & TRADE_FLAGS.isIncrease ? 'increase' : 'decrease'; // a collateral edit

  const price = alphaPrice(ev.executionPrice, decimals.index);
  // a position first seen mid-lifecycle (opened before the backfill's start) starts from the
  // program's own entry of its size before the fill: size in USD / size in tokens
  const running: PositionRunning | undefined =
    type === 'open'
      ? undefined
      : (ctx.running ?? {
          collateralMicros: prev,
          sizeMicros: sizeBefore,
          increasedMicros: sizeBefore,
          increasedNotional: programEntry(ev.before.sizeInUsd, ev.before.sizeInTokens, decimals.index) * (Number(sizeBefore) / 1e6),
        });
  return {
    protocol: 'alpha',
    time: Number(ev.ts) * 1000,
    slot: ctx.slot,
    tx: ctx.tx,
    event_index: ctx.eventIndex,
    position_key: ev.position,
    address: ev.user,
    market: `${market.index}-PERP`,
    market_variant: market.name,
    side: long ? 'long' : 'short',
    type,
    size_delta_usd: microsToUsd(delta),
    position_size_usd: microsToUsd(sizeAfter),
    collateral_delta_usd: microsToUsd(collAfter - prev),
    position_collateral_usd: microsToUsd(collAfter),
    price,
    entry_price: PositionChain.entryAfter(running, delta, price, price),
    pnl_delta_usd: microsToUsd(usd20(ev.pnl)),
    fee_usd: microsToUsd(fee),
    borrowing_fee_usd: usdOrNull(borrow),
    funding_fee_usd: usdOrNull(funding),
    liquidation_fee_usd: usdOrNull(liq),
    funding_earned_usd: usdOrNull(earned),
    fee_total_usd: microsToUsd(fee + borrow + funding + liq),
    index_price: alphaMidPrice(ev.prices.index, decimals.index),
    collateral_token: collToken,
    // the program's own entry after the fill (size in USD / size in tokens of the position state
    // the TradeEvent carries); a fill that closes the position keeps the entry it closed at
    position_entry_price:
      ev.after.sizeInTokens > 0n ? programEntry(ev.after.sizeInUsd, ev.after.sizeInTokens, decimals.index) : nullIfZero(programEntry(ev.before.sizeInUsd, ev.before.sizeInTokens, decimals.index)),
  };
}
