/**
 * Test-side encoder: the simulator's fills → transactions carrying them the way the programs
 * emit them, laid out from the design docs (alpha-events.md: an execute instruction whose inner
 * instructions are PositionIncreased / PositionDecreased then TradeEvent, then a close_order
 * instruction with OrderRemoved, none for liquidations; accounts.md §7: beta's events in the
 * published IDL's field order). The chain's accounts go with them: Market accounts with their
 * mints, SPL mint accounts, and the store's token map for the synthetic index tokens. Used by the
 * end-to-end test's mock RPC server; the golden vectors do not depend on it.
 */
import { createHash } from 'node:crypto';
import type { IncomingFill } from '../../server/journal/rows.ts';
import type { RpcTransaction } from '../../server/sources/solana/events.ts';
import { ALPHA_VARIANTS } from '../../server/sources/simulate/markets.ts';
import { base58ToBytes, bytesToBase58 } from '../../server/sources/solana/base58.ts';
import { concat, fromHex, i128, i64, u128, u64, u8, zeros } from './solana-bytes.ts';

const ALPHA_PROGRAM = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const BETA_PROGRAM = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';
const STORE = 'CTDLvGGXnoxvqLyTpGzdGLg9pD6JexKxKXSV8tqqo8bN';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TAG = 'e445a52e51cb9a1d';
const EVENT_AUTHORITY: Record<string, string> = {
  [ALPHA_PROGRAM]: '8a4wJ2bMiH6XWDZ7biTnejkss8VG7GMwd9Mg6F5fDfHF',
  [BETA_PROGRAM]: '37hJBDnntwqhGbK7L6M1bLyvccj4u55CCUiLPdYkiqBN',
};
const BETA_CUSTODY: Record<string, string> = {
  SOL: '7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz',
  ETH: 'AQCGyheWPLeo6Qp9WpYS9m3Qj479t7R636N9ey1rEjEn',
  BTC: '5Pv3gM9JrFFH883SWAhvJC9RPYmo8UNxuFtv5bMMALkm',
  USDC: 'G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa',
  USDT: '4vkNeXiYEUizLdrpdPS1eC2mccyM4NUPRtERrk6ZETkk',
};

/** The test chain's token decimals: real tokens from SPL mints, synthetic index tokens from the token map. */
export const TEST_DECIMALS: Record<string, { decimals: number; synthetic: boolean }> = {
  SOL: { decimals: 9, synthetic: false },
  WSOL: { decimals: 9, synthetic: false },
  USDC: { decimals: 6, synthetic: false },
  BTC: { decimals: 8, synthetic: false },
  ETH: { decimals: 8, synthetic: false },
  XAU: { decimals: 8, synthetic: true },
  NVDA: { decimals: 8, synthetic: true },
  EUR: { decimals: 8, synthetic: true },
};

const keyBytes = (b58: string): Uint8Array => base58ToBytes(b58);
const E14 = 10n ** 14n;
const micros = (x: number): bigint => BigInt(Math.round(x * 1e6));
const usd20 = (x: number): bigint => micros(x) * E14;
/** USD per whole token → alpha's unit price (per smallest unit × 1e20) */
const unitPrice = (usd: number, decimals: number): bigint => BigInt(Math.round((usd * 1e20) / 10 ** decimals));

/** A deterministic 32-byte key for a label (market tokens, mints, orders). */
export function labelKey(label: string): Uint8Array {
  return Uint8Array.from(createHash('sha256').update(label).digest());
}
const mintOf = (symbol: string) => labelKey(`mint:${symbol}`);

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

/** A Market account: discriminator, header, name @24, market token @88, index / long / short mints @120/152/184, store @216. */
export function marketAccount(m: EncodedMarket): Uint8Array {
  const name = new TextEncoder().encode(m.name);
  return concat(fromHex('dbbed53700e3c69a'), zeros(16), name, zeros(64 - name.length), m.token, mintOf(m.index), mintOf(m.long), mintOf(m.short), keyBytes(STORE), zeros(9176 - 248));
}

/** Every account the indexer reads from the test chain, by owner program. */
export function chainAccounts(): Map<string, { pubkey: string; data: Uint8Array }[]> {
  const mapKey = labelKey('token-map');
  const synthetic = Object.entries(TEST_DECIMALS).filter(([, t]) => t.synthetic);
  const map = new Uint8Array(8564 + 328 * synthetic.length);
  map.set(fromHex('6b2b1b18f53e917e'), 0);
  synthetic.forEach(([symbol, t], i) => {
    map.set(mintOf(symbol), 48 + 33 * i);
    map[48 + 33 * i + 32] = i;
    map[8564 + 328 * i + 33] = t.decimals;
  });
  new DataView(map.buffer).setUint32(8496, synthetic.length, true);
  const store = concat(fromHex('8230f7f4b6bf1e1a'), zeros(4568 - 8), mapKey, zeros(64));
  const mints = Object.entries(TEST_DECIMALS)
    .filter(([, t]) => !t.synthetic)
    .map(([symbol, t]) => ({ pubkey: bytesToBase58(mintOf(symbol)), data: concat(zeros(36), u64(0), u8(t.decimals), u8(1), zeros(36)) }));
  return new Map([
    [
      ALPHA_PROGRAM,
      [...ENCODED_MARKETS.map((m) => ({ pubkey: bytesToBase58(labelKey(`account:${m.name}`)), data: marketAccount(m) })), { pubkey: STORE, data: store }, { pubkey: bytesToBase58(mapKey), data: map }],
    ],
    [TOKEN_PROGRAM, mints],
  ]);
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

const u32 = (v: number) => Uint8Array.of(v & 255, (v >> 8) & 255, (v >> 16) & 255, v >>> 24);
const opt = (v: Uint8Array | null) => (v === null ? u8(0) : concat(u8(1), v));

/** One top-level instruction: its data, and the events its self-CPIs carry. */
interface Ix {
  data: Uint8Array;
  events: Uint8Array[];
}

function transaction(f: { tx: string; slot: number; time: number }, program: string, ixs: Ix[]): RpcTransaction {
  return {
    slot: f.slot,
    blockTime: f.time / 1000,
    transaction: {
      signatures: [f.tx],
      message: {
        accountKeys: ['Keeper1111111111111111111111111111111111111', program, EVENT_AUTHORITY[program]!],
        instructions: ixs.map((ix) => ({ programIdIndex: 1, data: bytesToBase58(ix.data) })),
      },
    },
    meta: {
      err: null,
      innerInstructions: ixs.map((ix, index) => ({ index, instructions: ix.events.map((e) => ({ programIdIndex: 1, accounts: [2], data: bytesToBase58(concat(fromHex(TAG), e)) })) })),
    },
  };
}

/** Encodes fills in order; keeps each position's on-chain state between its fills. */
export class FillEncoder {
  private readonly alpha = new Map<string, AlphaState>();
  private order = 0;

  /** The transaction of one simulator fill. */
  encode(f: IncomingFill): RpcTransaction {
    return f.protocol === 'alpha' ? transaction(f, ALPHA_PROGRAM, this.alphaIxs(f)) : transaction(f, BETA_PROGRAM, [{ data: fromHex('0101010101010101'), events: [this.betaEvent(f)] }]);
  }

  /** A beta open whose size is more than a u64 of micro-dollars can describe in the journal: the invalid fill. */
  invalidBetaOpen(f: IncomingFill): RpcTransaction {
    return transaction(f, BETA_PROGRAM, [{ data: fromHex('0101010101010101'), events: [this.betaEvent({ ...f, type: 'open', size_delta_usd: 0, position_size_usd: 0 }, 2n ** 64n - 1n)] }]);
  }

  private alphaIxs(f: IncomingFill): Ix[] {
    const m = ENCODED_MARKETS.find((x) => x.name === f.market_variant)!;
    const idxDec = TEST_DECIMALS[m.index]!.decimals;
    const collIsLong = f.collateral_token === m.long;
    const priceOf = (token: string) => (token === 'USDC' ? unitPrice(1, 6) : unitPrice(f.index_price, TEST_DECIMALS[token]!.decimals));
    const collPrice = priceOf(collIsLong ? m.long : m.short);
    const before = f.type === 'open' ? EMPTY : (this.alpha.get(f.position_key) ?? EMPTY);
    const after: AlphaState =
      f.position_size_usd === 0
        ? EMPTY
        : {
            size: usd20(f.position_size_usd),
            // the program's size in tokens: the size at the position's own entry (weighted by the size held)
            tokens: BigInt(Math.round((f.position_size_usd / (f.position_entry_price ?? f.entry_price)) * 10 ** idxDec)),
            collateral: amountWorth(micros(f.position_collateral_usd), collPrice),
          };
    this.alpha.set(f.position_key, after);
    const increase = f.type === 'open' || f.type === 'increase';
    const flags = (f.side === 'long' ? 1 : 0) | (collIsLong ? 2 : 0) | (increase ? 4 : 0);
    const order = labelKey(`order:${this.order++}`);
    const position = keyBytes(f.position_key);
    const tokenAmount = (usd: number | null) => (usd ? amountWorth(micros(usd), collPrice) : 0n);
    const idx = unitPrice(f.index_price, idxDec);
    const exec = unitPrice(f.price, idxDec);
    const [claimLong, claimShort] = collIsLong ? [tokenAmount(f.funding_earned_usd), 0n] : [0n, tokenAmount(f.funding_earned_usd)];
    const trade = concat(
      fromHex('bddb7fd34ee661ee'),
      u8(flags),
      zeros(7),
      u64(this.order),
      labelKey('authority'),
      keyBytes(STORE),
      m.token,
      keyBytes(f.address),
      position,
      order,
      zeros(32),
      i64(f.time / 1000),
      u64(f.slot),
      positionState(before),
      positionState(after),
      u8(255),
      zeros(7),
      zeros(64),
      zeros(8),
      u128(idx),
      u128(idx),
      u128(priceOf(m.long)),
      u128(priceOf(m.long)),
      u128(priceOf(m.short)),
      u128(priceOf(m.short)),
      u128(exec),
      i128(0),
      u128(0),
      i128(usd20(f.pnl_delta_usd)),
      i128(usd20(f.pnl_delta_usd)),
      // order fee (receiver, pool), liquidation fee (total, receiver), borrowing (total, receiver), funding, claimable long/short
      u128(0),
      u128(tokenAmount(f.fee_usd)),
      u128(tokenAmount(f.liquidation_fee_usd)),
      u128(0),
      u128(tokenAmount(f.borrowing_fee_usd)),
      u128(0),
      u128(tokenAmount(f.funding_fee_usd)),
      u128(claimLong),
      u128(claimShort),
      u128(0),
      u128(0),
    );
    const fee = usd20(f.fee_usd);
    const feeBlock = (liquidation: Uint8Array | null) =>
      concat(
        u128(fee),
        u128(0),
        u128(tokenAmount(f.fee_usd)),
        u128(fee), // paid value, order base (receiver, pool), order fee value
        u128(tokenAmount(f.borrowing_fee_usd)),
        u128(0),
        u128(tokenAmount(f.funding_fee_usd)),
        u128(0),
        u128(0),
        opt(liquidation),
      );
    const sizeDelta = usd20(Math.abs(f.size_delta_usd));
    const report = increase
      ? concat(fromHex('493af7b564edf951'), u64(1), m.token, u128(0), u128(sizeDelta), opt(u128(exec)), zeros(6 * 16), i128(0), i128(0), u128(0), u128(exec), i128(0), feeBlock(null), u128(0), u128(0))
      : concat(
          fromHex('fb9725cc7f5773e8'),
          u64(1),
          m.token,
          i128(0),
          u128(0),
          u128(exec),
          u128(0),
          u128(0),
          u128(sizeDelta),
          u128(sizeDelta),
          feeBlock(f.type === 'liquidation' ? concat(u128(usd20(f.liquidation_fee_usd ?? 0)), u128(0), u128(0)) : null),
          i128(usd20(f.pnl_delta_usd)),
          i128(usd20(f.pnl_delta_usd)),
          u8(0),
          u8(f.position_size_usd === 0 ? 1 : 0),
          u8(0),
          u8(0),
          zeros(8 * 16),
        );
    // instruction discriminators: execute_increase_or_swap_order_v2, execute_decrease_order_v2, liquidate, close_order_v2
    const execIx = f.type === 'liquidation' ? 'dfb3e27d302e274a' : increase ? '9f7ec2055c6bc7b7' : '10650ea0be01e485';
    const ixs: Ix[] = [{ data: fromHex(execIx), events: [report, trade] }];
    if (f.type !== 'liquidation') {
      const kind = increase ? 3 : 4; // MarketIncrease, MarketDecrease
      const reason = new TextEncoder().encode('executed');
      const removed = concat(
        fromHex('549b798ef0eb9017'),
        u64(this.order),
        i64(f.time / 1000),
        u64(f.slot),
        keyBytes(STORE),
        order,
        u8(kind),
        m.token,
        keyBytes(f.address),
        u8(1),
        u32(reason.length),
        reason,
      );
      ixs.push({ data: fromHex('d5d96264e1cd4cb8'), events: [removed] });
    }
    return ixs;
  }

  /** beta: one event in the IDL's field order (accounts.md §7). */
  private betaEvent(f: IncomingFill, sizeOverride?: bigint): Uint8Array {
    const asset = f.market.replace('-PERP', '');
    const custody = keyBytes(BETA_CUSTODY[asset]!);
    const collCustody = keyBytes(BETA_CUSTODY[f.collateral_token!]!);
    const increase = f.type === 'open' || f.type === 'increase';
    const instant = f.tx.charCodeAt(5) % 2 === 0; // both event families, deterministically
    const abs = (x: number) => micros(Math.abs(x));
    const size = sizeOverride ?? micros(f.position_size_usd);
    const delta = sizeOverride ?? abs(f.size_delta_usd);
    const head = concat(keyBytes(f.position_key), u8(f.side === 'long' ? 1 : 2), custody, collCustody);
    const owner = keyBytes(f.address);
    const pool = labelKey('pool');
    const mint = labelKey('mint');
    const fees = concat(u64(micros(f.fee_usd)), u64(micros(f.borrowing_fee_usd ?? 0)), u64(0)); // positionFeeUsd, fundingFeeUsd, priceImpactFeeUsd
    const price = u64(micros(f.price));
    const referral = f.slot % 3 === 0 ? opt(labelKey('referral')) : opt(null);
    const profit = u8(f.pnl_delta_usd >= 0 ? 1 : 0);
    const pnl = u64(abs(f.pnl_delta_usd));
    const collAfter = u64(micros(f.position_collateral_usd));
    const collBefore = u64(micros(f.position_collateral_usd - f.collateral_delta_usd));
    const entry = u64(micros(f.position_entry_price ?? f.entry_price)); // Position.price: the program's own entry
    if (f.type === 'liquidation') {
      return concat(
        fromHex('806547a880485654'),
        head,
        mint,
        mint,
        u64(abs(f.size_delta_usd)),
        profit,
        pnl,
        owner,
        pool,
        u64(0),
        u64(0),
        price,
        u64(micros(f.fee_usd)),
        u64(micros(f.liquidation_fee_usd ?? 0)),
        i64(0),
        fees,
        collBefore,
        u64(0),
        i64(0),
        entry,
      );
    }
    if (increase) {
      // collateralUsdDelta is a u64: an increase that lost collateral to its fees carries 0 (see the end-to-end test)
      const collDelta = u64(f.collateral_delta_usd > 0 ? micros(f.collateral_delta_usd) : 0n);
      if (instant) {
        return concat(fromHex('cdec3904d16a5745'), head, u64(size), mint, owner, pool, u64(delta), collDelta, u64(0), price, u64(0), u64(0), u64(micros(f.fee_usd)), i64(0), referral, fees);
      }
      return concat(
        fromHex('f5715534d6bb9984'),
        head,
        u64(size),
        mint,
        labelKey('request'),
        mint,
        u8(1),
        u8(0),
        u64(0),
        owner,
        pool,
        u64(delta),
        collDelta,
        u64(0),
        price,
        opt(f.slot % 2 === 0 ? price : null),
        u64(0),
        u64(micros(f.fee_usd)),
        i64(0),
        referral,
        fees,
      );
    }
    if (instant) {
      const j2 = f.slot % 2 === 0 ? opt(f.slot % 4 === 0 ? labelKey('request') : null) : new Uint8Array(0); // both IDL versions
      return concat(
        fromHex('abad6a19efbe3a3b'),
        head,
        u64(size),
        mint,
        mint,
        profit,
        pnl,
        owner,
        pool,
        u64(delta),
        u64(0),
        u64(0),
        price,
        u64(0),
        u64(micros(f.fee_usd)),
        i64(0),
        referral,
        u64(micros(f.fee_usd)),
        u64(micros(f.borrowing_fee_usd ?? 0)),
        collBefore,
        collAfter,
        u64(0),
        i64(0),
        entry,
        j2,
      );
    }
    return concat(
      fromHex('409c2b4a6d83107f'),
      head,
      u64(size),
      mint,
      labelKey('request'),
      mint,
      u8(2),
      u8(0),
      profit,
      pnl,
      owner,
      pool,
      u64(delta),
      u64(0),
      opt(f.slot % 2 === 0 ? u64(5) : null),
      price,
      opt(null),
      u64(micros(f.fee_usd)),
      i64(0),
      referral,
      fees,
      collBefore,
      collAfter,
      i64(0),
      entry,
    );
  }
}
