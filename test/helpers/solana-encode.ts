/**
 * Test-side encoder: the simulator's fills → transactions carrying them as event-CPI inner
 * instructions, laid out per protocols.md (and the inferred layouts of layout.ts), the way the
 * programs would emit them. Used by the end-to-end test's mock RPC server; the golden vectors of
 * test/solana-decode.test.ts do not depend on it.
 */
import { createHash } from 'node:crypto';
import type { IncomingFill } from '../../server/journal/rows.ts';
import type { RpcTransaction } from '../../server/sources/solana/events.ts';
import { ALPHA_EVENTS, ALPHA_PROGRAM, BETA_CUSTODIES, BETA_EVENTS, BETA_PROGRAM, EVENT_CPI_TAG, TOKEN_DECIMALS } from '../../server/sources/solana/layout.ts';
import { ALPHA_VARIANTS } from '../../server/sources/simulate/markets.ts';
import { base58ToBytes, bytesToBase58 } from '../../server/sources/solana/base58.ts';
import { concat, fromHex, i128, i64, u128, u64, u8, zeros } from './solana-bytes.ts';

const keyBytes = (b58: string): Uint8Array => base58ToBytes(b58);

const E14 = 10n ** 14n;
const micros = (x: number): bigint => BigInt(Math.round(x * 1e6));
/** USD (6-decimal number) → alpha's 20-decimal USD */
const usd20 = (x: number): bigint => micros(x) * E14;
/** USD per whole token → alpha's unit price (per smallest unit × 1e20) */
const unitPrice = (usd: number, decimals: number): bigint => BigInt(Math.round((usd * 1e20) / 10 ** decimals));

/** A deterministic 32-byte key for a label (market tokens, orders). */
export function labelKey(label: string): Uint8Array {
  return Uint8Array.from(createHash('sha256').update(label).digest());
}

export interface EncodedMarket {
  name: string;
  index: string;
  long: string;
  short: string;
  token: Uint8Array;
}

export const ENCODED_MARKETS: EncodedMarket[] = ALPHA_VARIANTS.map((v) => {
  const m = /^(\w+)\/USD\[(\w+)-(\w+)\]$/.exec(v.name)!;
  return { name: v.name, index: m[1]!, long: m[2]!, short: m[3]!, token: labelKey(`market:${v.name}`) };
});

/** A Market account: discriminator, header, 64-byte name at 24, market token at 88, then the rest. */
export function marketAccount(m: EncodedMarket): Uint8Array {
  const name = new TextEncoder().encode(m.name);
  return concat(fromHex('dbbed53700e3c69a'), zeros(16), name, zeros(64 - name.length), m.token, zeros(400));
}

interface AlphaState {
  tokens: bigint;
  collateral: bigint;
  size: bigint;
}
const EMPTY: AlphaState = { tokens: 0n, collateral: 0n, size: 0n };

function positionState(s: AlphaState): Uint8Array {
  return concat(u64(1), i64(0), u64(0), i64(0), u128(s.tokens), u128(s.collateral), u128(s.size), u128(0), u128(0), u128(0), u128(0), zeros(128));
}

/** The token amount whose value at `price` is exactly `usd` micro-dollars (as the decoder rounds). */
function amountWorth(usdMicros: bigint, price: bigint): bigint {
  const base = (usdMicros * E14) / price;
  for (let d = -3n; d <= 3n; d++) {
    const a = base + d;
    const v = a * price;
    const m = v / E14 + (2n * (v % E14) >= E14 ? 1n : 0n);
    if (a >= 0n && m === usdMicros) return a;
  }
  return base;
}

/** Encodes fills in order; keeps each position's on-chain state between its fills. */
export class FillEncoder {
  private readonly alpha = new Map<string, AlphaState>();
  private order = 0;

  /** The transaction of one simulator fill. */
  encode(f: IncomingFill): RpcTransaction {
    const events = f.protocol === 'alpha' ? this.alphaEvents(f) : [this.betaEvent(f)];
    return {
      slot: f.slot,
      blockTime: f.time / 1000,
      transaction: { signatures: [f.tx], message: { accountKeys: ['Keeper1111111111111111111111111111111111111', f.protocol === 'alpha' ? ALPHA_PROGRAM : BETA_PROGRAM] } },
      meta: {
        err: null,
        innerInstructions: [
          { index: 0, instructions: events.map((e) => ({ programIdIndex: 1, data: bytesToBase58(concat(fromHex(EVENT_CPI_TAG), e)) })) },
        ],
      },
    };
  }

  private alphaEvents(f: IncomingFill): Uint8Array[] {
    const m = ENCODED_MARKETS.find((x) => x.name === f.market_variant)!;
    const idxDec = TOKEN_DECIMALS[m.index]!;
    const collIsLong = f.collateral_token === m.long;
    const priceOf = (token: string) => (token === 'USDC' ? unitPrice(1, 6) : unitPrice(f.index_price, TOKEN_DECIMALS[token]!));
    const collPrice = priceOf(collIsLong ? m.long : m.short);
    const before = f.type === 'open' ? EMPTY : (this.alpha.get(f.position_key) ?? EMPTY);
    const after: AlphaState =
      f.position_size_usd === 0
        ? EMPTY
        : {
            size: usd20(f.position_size_usd),
            tokens: BigInt(Math.round((f.position_size_usd / f.entry_price) * 10 ** idxDec)),
            collateral: amountWorth(micros(f.position_collateral_usd), collPrice),
          };
    this.alpha.set(f.position_key, after);
    const increase = f.type === 'open' || f.type === 'increase';
    const flags = (f.side === 'long' ? 1 : 0) | (collIsLong ? 2 : 0) | (increase ? 4 : 0);
    const order = labelKey(`order:${this.order++}`);
    const position = keyBytes(f.position_key);
    const tokenFee = (usd: number | null) => (usd ? amountWorth(micros(usd), collPrice) : 0n);
    const idx = unitPrice(f.index_price, idxDec);
    const trade = concat(
      fromHex(ALPHA_EVENTS.TradeEvent), u8(flags), zeros(7), u64(this.order),
      labelKey('authority'), labelKey('store'), m.token, keyBytes(f.address), position, order, labelKey('output'),
      i64(f.time / 1000), u64(f.slot), positionState(before), positionState(after),
      u8(1), zeros(7), zeros(64), zeros(8),
      u128(idx), u128(idx), u128(priceOf(m.long)), u128(priceOf(m.long)), u128(priceOf(m.short)), u128(priceOf(m.short)),
      u128(unitPrice(f.price, idxDec)), i128(0), u128(0),
      i128(usd20(f.pnl_delta_usd)), i128(usd20(f.pnl_delta_usd)),
      // order fee (receiver, pool), liquidation fee (total, receiver), borrowing (total, receiver), funding, claimable long/short
      u128(0), u128(tokenFee(f.fee_usd)), u128(tokenFee(f.liquidation_fee_usd)), u128(0), u128(tokenFee(f.borrowing_fee_usd)), u128(0),
      u128(tokenFee(f.funding_fee_usd)), u128(0), u128(0),
      u128(0), u128(0),
    );
    const usd = [f.fee_usd, f.borrowing_fee_usd, f.funding_fee_usd, f.liquidation_fee_usd, f.funding_earned_usd].map((x) => u128(usd20(x ?? 0)));
    const feeEvent = increase
      ? concat(fromHex(ALPHA_EVENTS.PositionIncreased), u64(1), m.token, position, ...usd)
      : concat(fromHex(ALPHA_EVENTS.PositionDecreased), u64(1), m.token, position, ...usd, i128(usd20(f.pnl_delta_usd)));
    const kind = f.type === 'liquidation' ? 0 : increase ? 3 : 4; // Liquidation, MarketIncrease, MarketDecrease
    const removed = concat(fromHex(ALPHA_EVENTS.OrderRemoved), u64(this.order), i64(f.time / 1000), u64(f.slot), labelKey('store'), order, u8(kind), m.token, keyBytes(f.address));
    return [feeEvent, trade, removed];
  }

  private betaEvent(f: IncomingFill): Uint8Array {
    const custodyOf = (symbol: string) => keyBytes(Object.entries(BETA_CUSTODIES).find(([, s]) => s === symbol)![0]);
    const asset = f.market.replace('-PERP', '');
    const increase = f.type === 'open' || f.type === 'increase';
    const instant = f.tx.charCodeAt(5) % 2 === 0; // both event families, deterministically
    const disc =
      f.type === 'liquidation' ? BETA_EVENTS.LiquidateFullPositionEvent
      : increase ? (instant ? BETA_EVENTS.InstantIncreasePositionEvent : BETA_EVENTS.IncreasePositionEvent)
      : instant ? BETA_EVENTS.InstantDecreasePositionEvent : BETA_EVENTS.DecreasePositionEvent;
    const abs = (x: number) => micros(Math.abs(x));
    const head = concat(
      keyBytes(f.position_key), u8(f.side === 'long' ? 1 : 2), custodyOf(asset), custodyOf(f.collateral_token!), keyBytes(f.address),
      u64(abs(f.size_delta_usd)), u64(micros(f.position_size_usd)), u64(abs(f.collateral_delta_usd)), u64(micros(f.position_collateral_usd)),
      u64(micros(f.price)), u64(micros(f.entry_price)), u64(micros(f.fee_usd)), u64(micros(f.fee_usd)),
      f.borrowing_fee_usd ? concat(u8(1), u64(micros(f.borrowing_fee_usd))) : u8(0),
      u8(0),
    );
    if (increase) return concat(fromHex(disc), head);
    const pnl = concat(u8(f.pnl_delta_usd >= 0 ? 1 : 0), u64(abs(f.pnl_delta_usd)));
    if (f.type !== 'liquidation') return concat(fromHex(disc), head, pnl);
    return concat(fromHex(disc), head, pnl, u64(micros(f.liquidation_fee_usd ?? 0)));
  }
}
