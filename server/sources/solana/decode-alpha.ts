/**
 * alpha (GMX-Solana): a TradeEvent, with the USD fee values of its PositionIncreased /
 * PositionDecreased and the order kind of its OrderRemoved when the transaction has them, →
 * one journal fill. Market accounts → market names. Layouts and constants: layout.ts.
 */
import { getBase58Decoder } from '@solana/codecs';
import type { FillType, IncomingFill } from '../../journal/rows.ts';
import {
  ALPHA_MARKET_DISC,
  ALPHA_USD_DECIMALS,
  MARKET_NAME_OFFSET,
  MARKET_TOKEN_OFFSET,
  TOKEN_DECIMALS,
  type PositionFeeValues,
  type TradeEvent,
} from './layout.ts';
import { alphaPrice, bytesToHex, microsToUsd, mid, tokenValueMicros, usdMicros, usdOrNull } from './units.ts';

/** An alpha market as its account names it: `{INDEX}/USD[{LONG}-{SHORT}]`. */
export interface AlphaMarket {
  marketToken: string;
  name: string;
  index: string;
  long: string;
  short: string;
}

const NAME_RE = /^([A-Za-z0-9.]+)\/USD\[([A-Za-z0-9.]+)-([A-Za-z0-9.]+)\]$/;

/** Parses a market name; null when it does not have the `{INDEX}/USD[{LONG}-{SHORT}]` shape. */
export function parseMarketName(name: string, marketToken = ''): AlphaMarket | null {
  const m = NAME_RE.exec(name);
  return m ? { marketToken, name, index: m[1]!, long: m[2]!, short: m[3]! } : null;
}

const base58 = getBase58Decoder();

/** A Market account's name and market token; null for another account type. */
export function decodeMarketAccount(data: Uint8Array): { name: string; marketToken: string } | null {
  if (data.length < MARKET_TOKEN_OFFSET + 32 || bytesToHex(data.subarray(0, 8)) !== ALPHA_MARKET_DISC) return null;
  const raw = data.subarray(MARKET_NAME_OFFSET, MARKET_NAME_OFFSET + 64);
  const end = raw.indexOf(0);
  const name = new TextDecoder().decode(end < 0 ? raw : raw.subarray(0, end));
  return { name, marketToken: base58.decode(data.subarray(MARKET_TOKEN_OFFSET, MARKET_TOKEN_OFFSET + 32)) };
}

function decimalsOf(symbol: string): number {
  const d = TOKEN_DECIMALS[symbol];
  if (d === undefined) throw new Error(`alpha: no decimals known for token ${symbol} (add it to TOKEN_DECIMALS)`);
  return d;
}

/** TradeEvent flag bits (inferred, protocols.md). */
export const TRADE_FLAGS = { isLong: 1, collateralIsLong: 2, isIncrease: 4 } as const;

/** What a TradeEvent needs from the rest of its transaction and from the indexer's state. */
export interface AlphaFillContext {
  tx: string;
  slot: number;
  eventIndex: number;
  market: AlphaMarket;
  /** USD fee values from the PositionIncreased / PositionDecreased of the same position */
  feeValues?: PositionFeeValues;
  /** order kind from the OrderRemoved of the same order */
  orderKind?: string;
  /** position_collateral_usd (micro-dollars) of this position's previous fill, if known */
  prevCollateralMicros?: bigint;
}

/** Micro-dollars of a USD value with 20 decimals. */
const usd20 = (raw: bigint): bigint => usdMicros(raw, ALPHA_USD_DECIMALS);

/**
 * The fill of one TradeEvent. USD amounts come from the event's USD values (size, PnL) and the
 * fee values of its PositionIncreased / PositionDecreased; without those, fees are valued from
 * their collateral-token amounts at the event's collateral price. position_collateral_usd is the
 * collateral at the event's price; collateral_delta_usd continues the position's chain (the
 * previous fill's value), as the journal defines it (see data.md / the simulator's ledger).
 */
export function alphaFill(ev: TradeEvent, ctx: AlphaFillContext): IncomingFill {
  const { market } = ctx;
  const long = (ev.flags & TRADE_FLAGS.isLong) !== 0;
  const collIsLong = (ev.flags & TRADE_FLAGS.collateralIsLong) !== 0;
  const collToken = collIsLong ? market.long : market.short;
  const collPrice = mid(collIsLong ? ev.prices.long : ev.prices.short);
  const indexDec = decimalsOf(market.index);
  const before = ev.before;
  const after = ev.after;

  const sizeBefore = usd20(before.sizeInUsd);
  const sizeAfter = usd20(after.sizeInUsd);
  const delta = sizeAfter - sizeBefore;
  const collAfter = sizeAfter === 0n ? 0n : tokenValueMicros(after.collateralAmount, collPrice);
  const prev = sizeBefore === 0n ? 0n : (ctx.prevCollateralMicros ?? tokenValueMicros(before.collateralAmount, collPrice));

  const f = ev.fees;
  const fv = ctx.feeValues;
  const tokenFee = (amount: bigint) => tokenValueMicros(amount, collPrice);
  const fee = fv ? usd20(fv.orderFeeValue) : tokenFee(f.orderFeeForReceiver + f.orderFeeForPool);
  const borrow = fv ? usd20(fv.borrowingFeeValue) : tokenFee(f.totalBorrowingFee);
  const funding = fv ? usd20(fv.fundingFeeValue) : tokenFee(f.fundingFee);
  const liq = fv ? usd20(fv.liquidationFeeValue) : tokenFee(f.liquidationFee);
  const earned = fv
    ? usd20(fv.claimableFundingValue)
    : tokenValueMicros(f.claimableFundingLong, mid(ev.prices.long)) + tokenValueMicros(f.claimableFundingShort, mid(ev.prices.short));

  let type: FillType;
  if (sizeBefore === 0n) type = 'open';
  else if (sizeAfter === 0n) type = liq > 0n || f.liquidationFee > 0n || ctx.orderKind === 'Liquidation' ? 'liquidation' : 'close';
  else if (delta !== 0n) type = delta > 0n ? 'increase' : 'decrease';
  else type = ev.flags & TRADE_FLAGS.isIncrease ? 'increase' : 'decrease'; // a collateral edit

  // entry = size in USD / size in tokens; a closed position keeps the entry it had
  const state = sizeAfter === 0n ? before : after;
  const tokens = Number(state.sizeInTokens) / 10 ** indexDec;
  const price = alphaPrice(ev.executionPrice, indexDec);
  const entry = tokens > 0 ? Number(usd20(state.sizeInUsd)) / 1e6 / tokens : price;

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
    entry_price: entry,
    pnl_delta_usd: microsToUsd(usd20(ev.pnl.pnl)),
    fee_usd: microsToUsd(fee),
    borrowing_fee_usd: usdOrNull(borrow),
    funding_fee_usd: usdOrNull(funding),
    liquidation_fee_usd: usdOrNull(liq),
    funding_earned_usd: usdOrNull(earned),
    fee_total_usd: microsToUsd(fee + borrow + funding + liq),
    index_price: alphaPrice(mid(ev.prices.index), indexDec),
    collateral_token: collToken,
  };
}
