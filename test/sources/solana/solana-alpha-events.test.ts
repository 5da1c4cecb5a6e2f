/**
 * Golden vectors, alpha (GMX-Solana): TradeEvent, PositionIncreased, PositionDecreased (with and
 * without liquidation fees, with and without an insolvent-close step) and OrderRemoved, laid out
 * by hand, field by field, from the offsets of shared/design/solana/alpha-events.md (each builder
 * checks the documented total length), decoded through the event-CPI framing to journal fills.
 */
import { describe, expect, it } from 'vitest';
import { decodeOrderRemoved, decodePositionDecreased, decodePositionIncreased } from '../../../server/sources/solana/alpha-events.ts';
import { PositionChain } from '../../../server/sources/solana/chain.ts';
import type { AlphaMarket } from '../../../server/sources/solana/decode-alpha.ts';
import { concat, fromHex, i128, i64, key, u128, u64, u8, zeros } from '../../helpers/solana-bytes.ts';
import { ALPHA, decode, txOf } from '../../helpers/solana-golden.ts';

const USD20 = 10n ** 20n; // alpha USD: 20 decimals
const store = key(0x01);
const marketToken = key(0x02);
const user = key(0x04);
const position = key(0x05);
const order = key(0x06);
const wsol = key(0x11);
const usdc = key(0x12);
const MARKET: AlphaMarket = {
  marketToken: marketToken.b58,
  name: 'SOL/USD[WSOL-USDC]',
  index: 'SOL',
  long: 'WSOL',
  short: 'USDC',
  indexMint: wsol.b58,
  longMint: wsol.b58,
  shortMint: usdc.b58,
};
const DECIMALS = { [wsol.b58]: 9, [usdc.b58]: 6 };
const SOL_125 = 12_500_000_000_000n; // $125 per SOL = 125e20 / 1e9 per lamport
const USDC_1 = 100_000_000_000_000n; // $1 per USDC = 1e20 / 1e6 per micro-USDC

function sized(bytes: Uint8Array, expected: number): Uint8Array {
  expect(bytes.length).toBe(expected);
  return bytes;
}

/** PositionState, 272 bytes (§1a). */
function positionState(s: { tokens: bigint; collateral: bigint; sizeUsd: bigint }): Uint8Array {
  return sized(
    concat(
      u64(7),
      i64(1_780_000_000),
      u64(330_000_000),
      i64(0), // trade_id @0, increased_at @8, updated_at_slot @16, decreased_at @24
      u128(s.tokens),
      u128(s.collateral),
      u128(s.sizeUsd), // size_in_tokens @32, collateral_amount @48, size_in_usd @64
      u128(0),
      u128(0),
      u128(0),
      u128(0), // borrowing_factor @80, funding_fee_amount_per_size @96, claimables @112 @128
      zeros(128), // reserved @144
    ),
    272,
  );
}
const EMPTY = positionState({ tokens: 0n, collateral: 0n, sizeUsd: 0n });

interface Trade {
  flags: number;
  before: Uint8Array;
  after: Uint8Array;
  execution: bigint;
  pnl?: bigint;
  /** nine u128 fees (§1 @1056..1199) */
  fees?: bigint[];
  index?: [bigint, bigint];
}

/** Discriminator + TradeEvent body (1232 bytes, §1). */
function tradeEvent(t: Trade): Uint8Array {
  const body = concat(
    u8(t.flags),
    zeros(7),
    u64(7), // flags @0, padding @1, trade_id @8
    key(0x09).bytes,
    store.bytes,
    marketToken.bytes,
    user.bytes,
    position.bytes,
    order.bytes,
    key(0x0a).bytes, // @16..@208
    i64(1_780_000_123),
    u64(330_000_000), // ts @240, slot @248
    t.before,
    t.after, // @256, @528
    u8(255),
    zeros(7),
    zeros(64),
    zeros(8), // transfer_out.executed @800, padding, 8 amounts @808.., padding_1 @872
    u128((t.index ?? [SOL_125, SOL_125])[0]),
    u128((t.index ?? [SOL_125, SOL_125])[1]), // prices.index @880/@896
    u128(SOL_125),
    u128(SOL_125),
    u128(USDC_1),
    u128(USDC_1), // long @912/@928, short @944/@960
    u128(t.execution),
    i128(0),
    u128(0), // execution_price @976, price_impact_value @992, price_impact_diff @1008
    i128(t.pnl ?? 0n),
    i128(t.pnl ?? 0n), // pnl @1024, uncapped @1040
    ...(t.fees ?? Array(9).fill(0n)).map(u128), // fees @1056..@1184
    u128(0),
    u128(0), // output_amounts @1200, @1216
  );
  return concat(fromHex('bddb7fd34ee661ee'), sized(body, 1232));
}

/** Discriminator + PositionIncreased body (§2): 442 bytes with acceptable_price Some, 426 with None. */
function positionIncreased(o: { acceptable: boolean; sizeDelta: bigint; orderFeeValue: bigint }): Uint8Array {
  const body = concat(
    u64(3),
    marketToken.bytes, // rev @0, market_token @8
    u128(100_000_000n),
    u128(o.sizeDelta), // collateral_increment_amount @40, size_delta_usd @56
    o.acceptable ? concat(u8(1), u128(SOL_125 + 1n)) : u8(0), // acceptable_price Option @72
    ...Array.from({ length: 6 }, () => u128(SOL_125)), // prices @89..
    i128(5n),
    i128(0),
    u128(8_000_000_000n),
    u128(SOL_125), // impact value @185, impact amount @201, size_delta_in_tokens @217, execution_price @233
    i128(99_300_000n), // collateral_delta_amount @249
    u128(o.orderFeeValue),
    u128(200_000n),
    u128(500_000n),
    u128(o.orderFeeValue), // paid @265, order base @281/@297, order fee_value @313
    u128(0),
    u128(0),
    u128(0),
    u128(0),
    u128(0), // borrowing @329/@345, funding amount @361, claimables @377/@393
    u8(0), // fees.liquidation None @409
    u128(0),
    u128(0), // claimable_funding_long/short @410/@426
  );
  return concat(fromHex('493af7b564edf951'), sized(body, o.acceptable ? 442 : 426));
}

/** Discriminator + PositionDecreased body (§3): 461, +48 with liquidation fees, +1 with an insolvent-close step. */
function positionDecreased(o: { liquidationFee?: bigint; step?: number; sizeDelta: bigint; pnl: bigint; orderFeeValue: bigint; remove: boolean }): Uint8Array {
  const liq = o.liquidationFee !== undefined;
  const body = concat(
    u64(4),
    marketToken.bytes, // rev @0, market_token @8
    i128(0),
    u128(0),
    u128(SOL_125),
    u128(8_000_000_000n),
    u128(0),
    u128(o.sizeDelta),
    u128(o.sizeDelta), // impact @40, diff @56, exec @72, tokens @88, withdrawable @104, initial @120, size_delta_usd @136
    u128(o.orderFeeValue),
    u128(0),
    u128(0),
    u128(o.orderFeeValue), // paid @152, order base @168/@184, fee_value @200
    u128(0),
    u128(0),
    u128(0),
    u128(0),
    u128(0), // borrowing @216/@232, funding @248/@264/@280
    liq ? concat(u8(1), u128(o.liquidationFee!), u128(0), u128(0)) : u8(0), // fees.liquidation @296
    i128(o.pnl),
    i128(o.pnl), // pnl @297 (@345)
    o.step === undefined ? u8(0) : concat(u8(1), u8(o.step)), // insolvent_close_step @329 (@377)
    u8(o.remove ? 1 : 0),
    u8(0),
    u8(0), // should_remove, is_output_token_long, is_secondary_output_token_long
    ...Array.from({ length: 8 }, () => u128(0)), // output amounts, claimable funding, for_holding, for_user
  );
  return concat(fromHex('fb9725cc7f5773e8'), sized(body, 461 + (liq ? 48 : 0) + (o.step === undefined ? 0 : 1)));
}

/** Discriminator + OrderRemoved body (§4): 158 + reason length. */
function orderRemoved(kind: number, reason: string): Uint8Array {
  const text = new TextEncoder().encode(reason);
  const body = concat(
    u64(9),
    i64(1_780_000_124),
    u64(330_000_001),
    store.bytes,
    order.bytes, // id @0, ts @8, slot @16, store @24, order @56
    u8(kind),
    marketToken.bytes,
    user.bytes,
    u8(1), // kind @88, market_token @89, owner @121, state @153
    u32le(text.length),
    text, // reason @154
  );
  return concat(fromHex('549b798ef0eb9017'), sized(body, 158 + text.length));
}
function u32le(v: number): Uint8Array {
  return Uint8Array.of(v & 255, (v >> 8) & 255, (v >> 16) & 255, v >>> 24);
}

const OPEN_STATE = positionState({ tokens: 8_000_000_000n, collateral: 99_300_000n, sizeUsd: 1000n * USD20 });
const FEES_OPEN = [200_000n, 500_000n, 0n, 0n, 0n, 0n, 0n, 0n, 0n];

describe('alpha TradeEvent and PositionIncreased', () => {
  it("an open long with USDC collateral: exact prices, the report's USD order fee", () => {
    const trade = tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125, fees: FEES_OPEN, index: [SOL_125 - 1_000_000_000n, SOL_125 + 1_000_000_000n] });
    const report = positionIncreased({ acceptable: true, sizeDelta: 1000n * USD20, orderFeeValue: 7n * 10n ** 19n });
    const { fills, rejected } = decode(txOf(ALPHA, [report, trade]), { markets: [MARKET], decimals: DECIMALS });
    expect(rejected).toEqual([]);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toEqual({
      protocol: 'alpha',
      time: 1_780_000_123_000,
      slot: 330_000_000,
      tx: 'Sig1111',
      event_index: 0,
      position_key: position.b58,
      address: user.b58,
      market: 'SOL-PERP',
      market_variant: 'SOL/USD[WSOL-USDC]',
      side: 'long',
      type: 'open',
      size_delta_usd: 1000,
      position_size_usd: 1000,
      collateral_delta_usd: 99.3,
      position_collateral_usd: 99.3,
      price: 125,
      entry_price: 125,
      pnl_delta_usd: 0,
      fee_usd: 0.7,
      borrowing_fee_usd: null,
      funding_fee_usd: null,
      liquidation_fee_usd: null,
      funding_earned_usd: null,
      fee_total_usd: 0.7,
      index_price: 125,
      collateral_token: 'USDC',
      position_entry_price: 125, // the program's own entry: $1,000 / 8 SOL
    });
    // exactly 125, not float noise from the unit conversion
    expect(String(fills[0]!.price)).toBe('125');
    expect(String(fills[0]!.position_entry_price)).toBe('125');
  });

  it('PositionIncreased with acceptable_price None (426 bytes) decodes the same values', () => {
    const some = decodePositionIncreased(positionIncreased({ acceptable: true, sizeDelta: 5n * USD20, orderFeeValue: 3n }).subarray(8));
    const none = decodePositionIncreased(positionIncreased({ acceptable: false, sizeDelta: 5n * USD20, orderFeeValue: 3n }).subarray(8));
    expect(none).toEqual(some);
    expect(some).toMatchObject({ kind: 'increased', rev: 3n, marketToken: marketToken.b58, sizeDeltaUsd: 5n * USD20, executionPrice: SOL_125, orderFeeValue: 3n, liquidation: null });
  });

  it("without a report, the order fee is its token amounts at the collateral token's min price", () => {
    const trade = tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125, fees: FEES_OPEN });
    const { fills } = decode(txOf(ALPHA, [trade]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills[0]).toMatchObject({ fee_usd: 0.7, fee_total_usd: 0.7, type: 'open' });
  });

  it('a market whose token decimals the chain did not give is quarantined, not guessed', () => {
    const trade = tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125 });
    const { fills, rejected } = decode(txOf(ALPHA, [trade]), { markets: [MARKET], decimals: { [usdc.b58]: 6 } });
    expect(fills).toEqual([]);
    expect(rejected).toEqual([expect.objectContaining({ tx: 'Sig1111', event: 'TradeEvent', eventIndex: 0, reason: expect.stringMatching(/decimals of SOL\/USD\[WSOL-USDC\]'s index token/) })]);
  });
});

describe('alpha PositionDecreased', () => {
  const variants = [
    { name: 'no liquidation, no insolvent step', liquidationFee: undefined, step: undefined, length: 461 },
    { name: 'liquidation fees, no insolvent step', liquidationFee: 2n * USD20, step: undefined, length: 509 },
    { name: 'no liquidation, insolvent step', liquidationFee: undefined, step: 2, length: 462 },
    { name: 'liquidation fees and an insolvent step', liquidationFee: 0n, step: 4, length: 510 },
  ];
  for (const v of variants) {
    it(`${v.name} (${v.length} bytes)`, () => {
      const bytes = positionDecreased({ liquidationFee: v.liquidationFee, step: v.step, sizeDelta: 400n * USD20, pnl: -12n * USD20, orderFeeValue: 28n * 10n ** 18n, remove: true });
      expect(bytes.length - 8).toBe(v.length);
      expect(decodePositionDecreased(bytes.subarray(8))).toEqual({
        kind: 'decreased',
        rev: 4n,
        marketToken: marketToken.b58,
        sizeDeltaUsd: 400n * USD20,
        executionPrice: SOL_125,
        orderFeeValue: 28n * 10n ** 18n,
        paidFeeValue: 28n * 10n ** 18n,
        borrowingFeeAmount: 0n,
        fundingFeeAmount: 0n,
        liquidation: v.liquidationFee === undefined ? null : { feeValue: v.liquidationFee, feeAmount: 0n, feeAmountForReceiver: 0n },
        pnl: -12n * USD20,
        insolventCloseStep: v.step ?? null,
        shouldRemove: true,
      });
    });
  }

  const closeTrade = (fees: bigint[] = Array(9).fill(0n)) => tradeEvent({ flags: 0b001, before: OPEN_STATE, after: EMPTY, execution: 12_000_000_000_000n, pnl: -40n * USD20, fees });

  it("a liquidation at a zero liquidation fee is recognised by the report's liquidation tag", () => {
    const report = positionDecreased({ liquidationFee: 0n, sizeDelta: 1000n * USD20, pnl: -40n * USD20, orderFeeValue: 7n * 10n ** 19n, remove: true });
    const { fills } = decode(txOf(ALPHA, [report, closeTrade()]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills[0]).toMatchObject({ type: 'liquidation', size_delta_usd: -1000, position_size_usd: 0, price: 120, pnl_delta_usd: -40, liquidation_fee_usd: null, fee_usd: 0.7 });
  });

  it('a liquidation fee value comes from the report in USD', () => {
    const report = positionDecreased({ liquidationFee: 2n * USD20, sizeDelta: 1000n * USD20, pnl: -40n * USD20, orderFeeValue: 7n * 10n ** 19n, remove: true });
    const { fills } = decode(txOf(ALPHA, [report, closeTrade()]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills[0]).toMatchObject({ type: 'liquidation', liquidation_fee_usd: 2, fee_total_usd: 2.7 });
  });

  it('the liquidate instruction marks a liquidation even without a report', () => {
    const { fills } = decode(txOf(ALPHA, [closeTrade()], { outer: fromHex('dfb3e27d302e274a') }), { markets: [MARKET], decimals: DECIMALS });
    expect(fills[0]!.type).toBe('liquidation');
  });

  it('auto-deleveraging is a close (full) or decrease (partial), never a liquidation', () => {
    const full = decode(txOf(ALPHA, [closeTrade()], { outer: fromHex('d245a3942cf5e2aa') }), { markets: [MARKET], decimals: DECIMALS });
    expect(full.fills[0]!.type).toBe('close');
    const half = tradeEvent({ flags: 0b001, before: OPEN_STATE, after: positionState({ tokens: 4_000_000_000n, collateral: 99_300_000n, sizeUsd: 500n * USD20 }), execution: SOL_125 });
    const partial = decode(txOf(ALPHA, [half, orderRemoved(1, 'position cut')]), { markets: [MARKET], decimals: DECIMALS });
    expect(partial.fills[0]).toMatchObject({ type: 'decrease', size_delta_usd: -500 });
  });

  it('an order removed with kind Liquidation (0) marks its fill a liquidation', () => {
    const { fills } = decode(txOf(ALPHA, [closeTrade(), orderRemoved(0, 'executed')]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills[0]!.type).toBe('liquidation');
  });

  it('a plain close stays a close', () => {
    const report = positionDecreased({ sizeDelta: 1000n * USD20, pnl: -40n * USD20, orderFeeValue: 7n * 10n ** 19n, remove: true });
    const { fills } = decode(txOf(ALPHA, [report, closeTrade(), orderRemoved(4, 'executed')]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills[0]).toMatchObject({ type: 'close', pnl_delta_usd: -40, collateral_delta_usd: -99.3, position_collateral_usd: 0 });
  });
});

describe('alpha OrderRemoved', () => {
  it('reads kind at 88, the state and the reason string', () => {
    expect(decodeOrderRemoved(orderRemoved(8, 'executed').subarray(8))).toEqual({
      id: 9n,
      ts: 1_780_000_124n,
      slot: 330_000_001n,
      store: store.b58,
      order: order.b58,
      kind: 'StopLossDecrease',
      marketToken: marketToken.b58,
      owner: user.b58,
      state: 1,
      reason: 'executed',
    });
  });

  it('an order kind outside the documented enum is a layout error', () => {
    expect(() => decodeOrderRemoved(orderRemoved(9, '').subarray(8))).toThrow(/order kind 9/);
  });
});

describe('alpha events of undocumented length', () => {
  it('a TradeEvent one byte longer is quarantined with its bytes, never decoded', () => {
    const trade = concat(tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125 }), u8(0));
    const { fills, rejected } = decode(txOf(ALPHA, [trade]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills).toEqual([]);
    expect(rejected).toEqual([expect.objectContaining({ event: 'TradeEvent', eventIndex: 0, reason: 'TradeEvent: 1233 bytes, documented 1232', data: expect.any(String) })]);
  });

  it('a PositionIncreased cut short is set aside; its TradeEvent still becomes the fill', () => {
    const report = positionIncreased({ acceptable: true, sizeDelta: 1000n * USD20, orderFeeValue: 7n * 10n ** 19n }).subarray(0, 300);
    const trade = tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125, fees: FEES_OPEN });
    const { fills, rejected } = decode(txOf(ALPHA, [report, trade]), { markets: [MARKET], decimals: DECIMALS });
    expect(fills).toHaveLength(1);
    expect(rejected).toEqual([expect.objectContaining({ event: 'PositionIncreased', reason: expect.stringMatching(/PositionIncreased: 292 bytes end inside/) })]);
  });
});

describe('alpha entry price (the contract: size-weighted average of the increases)', () => {
  it('an increase after a partial decrease averages the increases, not the current size', () => {
    const chain = new PositionChain();
    const opts = { markets: [MARKET], decimals: DECIMALS, chain };
    const s = (usd: bigint, tokens: bigint) => positionState({ tokens, collateral: 99_300_000n, sizeUsd: usd * USD20 });
    decode(txOf(ALPHA, [tradeEvent({ flags: 0b101, before: EMPTY, after: s(1000n, 8_000_000_000n), execution: SOL_125 })]), opts);
    decode(txOf(ALPHA, [tradeEvent({ flags: 0b001, before: s(1000n, 8_000_000_000n), after: s(500n, 4_000_000_000n), execution: SOL_125 })]), opts);
    const { fills } = decode(txOf(ALPHA, [tradeEvent({ flags: 0b101, before: s(500n, 4_000_000_000n), after: s(1500n, 11_000_000_000n), execution: 10_000_000_000_000n })]), opts);
    // (1000 × 125 + 1000 × 100) / 2000
    expect(fills[0]).toMatchObject({ type: 'increase', price: 100, entry_price: 112.5 });
    // the program's own entry, by the size held: $1,500 / 11 SOL
    expect(fills[0]!.position_entry_price).toBe(1500 / 11);
  });
});

describe('event self-CPIs', () => {
  it('an inner instruction with the event tag counts only when its one account is the event authority', () => {
    const trade = tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125 });
    const tx = txOf(ALPHA, [trade]);
    expect(decode(tx, { markets: [MARKET], decimals: DECIMALS }).fills).toHaveLength(1);
    tx.meta!.innerInstructions![0]!.instructions[0]!.accounts = [0]; // the payer, not the event authority
    expect(decode(tx, { markets: [MARKET], decimals: DECIMALS })).toEqual({ fills: [], rejected: [] });
  });
});

describe('pairing', () => {
  it('a report pairs only with the TradeEvent of its own top-level instruction', () => {
    const report = positionIncreased({ acceptable: true, sizeDelta: 1000n * USD20, orderFeeValue: 9n * 10n ** 19n }); // $0.90
    const trade = tradeEvent({ flags: 0b101, before: EMPTY, after: OPEN_STATE, execution: SOL_125, fees: FEES_OPEN }); // 0.7 USDC in tokens
    const same = decode(txOf(ALPHA, [report, trade]), { markets: [MARKET], decimals: DECIMALS });
    expect(same.fills[0]!.fee_usd).toBe(0.9);
    const split = txOf(ALPHA, [report]);
    const other = txOf(ALPHA, [trade]).meta!.innerInstructions![0]!;
    split.transaction.message.instructions!.push({ ...split.transaction.message.instructions![0]! });
    split.meta!.innerInstructions!.push({ ...other, index: 1 });
    const apart = decode(split, { markets: [MARKET], decimals: DECIMALS });
    expect(apart.fills[0]!.fee_usd).toBe(0.7);
  });
});
