/**
 * Golden vectors, beta (Jupiter Perpetuals): the five fill events laid out by hand in the field
 * order of the program's published IDL (shared/design/solana/accounts.md §7, offsets checked
 * where the doc gives them), with Some and None of every Option and both IDL versions of
 * InstantDecreasePositionEvent, decoded to journal fills; and the fills that must be quarantined.
 */
import { describe, expect, it } from 'vitest';
import { decodeBetaEvent } from '../../../server/sources/solana/beta-events.ts';
import { PositionChain } from '../../../server/sources/solana/chain.ts';
import { concat, fromHex, i64, key, keyBytes, u64, u8 } from '../../helpers/solana-bytes.ts';
import { BETA, decode, txOf } from '../../helpers/solana-golden.ts';

const SOL = keyBytes('7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz');
const USDC = keyBytes('G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa');
const positionKey = key(0x21);
const owner = key(0x22);
const pool = key(0x23);
const mint = key(0x24);
const referral = key(0x25);
const request = key(0x26);
const M = (usd: number) => BigInt(Math.round(usd * 1e6)); // USD → 6-decimal u64

const opt = (v: Uint8Array | null) => (v === null ? u8(0) : concat(u8(1), v));
function at(bytes: Uint8Array, offset: number, expected: Uint8Array): void {
  expect(bytes.subarray(offset, offset + expected.length)).toEqual(expected);
}

interface Common {
  side?: number;
  custody?: Uint8Array;
  collateralCustody?: Uint8Array;
  sizeUsd: bigint;
  price: bigint;
  positionFee?: bigint;
  fundingFee?: bigint;
  impactFee?: bigint;
}
const head = (c: Common) => concat(positionKey.bytes, u8(c.side ?? 1), c.custody ?? SOL, c.collateralCustody ?? SOL);
const fees = (c: Common) => concat(u64(c.positionFee ?? 0n), u64(c.fundingFee ?? 0n), u64(c.impactFee ?? 0n));

function increasePosition(c: Common & { sizeDelta: bigint; collDelta: bigint; slippage: bigint | null; referral: boolean }): Uint8Array {
  const body = concat(
    head(c),
    u64(c.sizeUsd),
    mint.bytes,
    request.bytes,
    mint.bytes,
    u8(1),
    u8(0),
    u64(0), // ... positionRequestCollateralDelta @203
    owner.bytes,
    pool.bytes,
    u64(c.sizeDelta),
    u64(c.collDelta),
    u64(0),
    u64(c.price), // owner @211 ... price @299
    opt(c.slippage === null ? null : u64(c.slippage)), // priceSlippage @307
    u64(0),
    u64(9),
    i64(1_780_000_000),
    opt(c.referral ? referral.bytes : null),
    fees(c),
  );
  at(body, 211, owner.bytes);
  at(body, 299, u64(c.price));
  expect(body.length).toBe(307 + (c.slippage === null ? 1 : 9) + 24 + (c.referral ? 33 : 1) + 24);
  return concat(fromHex('f5715534d6bb9984'), body);
}

interface Decrease extends Common {
  sizeDelta: bigint;
  profit: boolean;
  pnl: bigint;
  transferToken: bigint | null;
  slippage: bigint | null;
  referral: boolean;
  collBefore: bigint;
  collAfter: bigint;
  entry: bigint;
}
function decreasePosition(c: Decrease): Uint8Array {
  const body = concat(
    head(c),
    u64(c.sizeUsd),
    mint.bytes,
    request.bytes,
    mint.bytes,
    u8(2),
    u8(0),
    u8(c.profit ? 1 : 0),
    u64(c.pnl), // hasProfit @203, pnlDelta @204
    owner.bytes,
    pool.bytes,
    u64(c.sizeDelta),
    u64(M(5)),
    opt(c.transferToken === null ? null : u64(c.transferToken)), // owner @212 … transferToken @292
    u64(c.price),
    opt(c.slippage === null ? null : u64(c.slippage)),
    u64(9),
    i64(1_780_000_000),
    opt(c.referral ? referral.bytes : null),
    fees(c),
    u64(c.collBefore),
    u64(c.collAfter),
    i64(1_779_000_000),
    u64(c.entry),
  );
  at(body, 204, u64(c.pnl));
  at(body, 276, u64(c.sizeDelta));
  return concat(fromHex('409c2b4a6d83107f'), body);
}

function instantIncrease(c: Common & { sizeDelta: bigint; collDelta: bigint; referral: boolean }): Uint8Array {
  const body = concat(
    head(c),
    u64(c.sizeUsd),
    mint.bytes,
    owner.bytes,
    pool.bytes,
    u64(c.sizeDelta),
    u64(c.collDelta),
    u64(0), // owner @137
    u64(c.price),
    u64(0),
    u64(0),
    u64(9),
    i64(1_780_000_000),
    opt(c.referral ? referral.bytes : null),
    fees(c), // price @225, referral @265
  );
  at(body, 225, u64(c.price));
  expect(body.length).toBe(265 + (c.referral ? 33 : 1) + 24);
  return concat(fromHex('cdec3904d16a5745'), body);
}

function instantDecrease(c: Decrease & { idl: 'J1' | 'J2'; positionRequest?: boolean }): Uint8Array {
  const body = concat(
    head(c),
    u64(c.sizeUsd),
    mint.bytes,
    mint.bytes,
    u8(c.profit ? 1 : 0),
    u64(c.pnl),
    owner.bytes,
    pool.bytes, // hasProfit @169, owner @178
    u64(c.sizeDelta),
    u64(M(5)),
    u64(0),
    u64(c.price),
    u64(0),
    u64(9),
    i64(1_780_000_000),
    opt(c.referral ? referral.bytes : null), // price @266, referral @298
    u64(c.positionFee ?? 0n),
    u64(c.fundingFee ?? 0n),
    u64(c.collBefore),
    u64(c.collAfter),
    u64(c.impactFee ?? 0n), // note the order
    i64(1_779_000_000),
    u64(c.entry),
    c.idl === 'J2' ? opt(c.positionRequest ? request.bytes : null) : new Uint8Array(0),
  );
  at(body, 178, owner.bytes);
  at(body, 266, u64(c.price));
  return concat(fromHex('abad6a19efbe3a3b'), body);
}

function liquidateFull(c: Common & { profit: boolean; pnl: bigint; liquidationFee: bigint; collBefore: bigint }): Uint8Array {
  const body = concat(
    head(c),
    mint.bytes,
    mint.bytes,
    u64(c.sizeUsd),
    u8(c.profit ? 1 : 0),
    u64(c.pnl),
    owner.bytes,
    pool.bytes, // positionSizeUsd @161
    u64(0),
    u64(0),
    u64(c.price),
    u64(9),
    u64(c.liquidationFee),
    i64(1_780_000_000), // price @258, liquidationFeeUsd @274
    fees(c),
    u64(c.collBefore),
    u64(0),
    i64(1_779_000_000),
    u64(M(125)),
  );
  at(body, 161, u64(c.sizeUsd));
  at(body, 274, u64(c.liquidationFee));
  expect(body.length).toBe(346);
  return concat(fromHex('806547a880485654'), body);
}

const one = (ev: Uint8Array, chain = new PositionChain()) => decode(txOf(BETA, [ev]), { chain });

describe('beta IncreasePositionEvent', () => {
  it('priceSlippage Some / referral None and None / Some decode the same fill', () => {
    const base = { sizeUsd: M(1000), sizeDelta: M(1000), collDelta: M(100), price: M(125), positionFee: M(0.6), impactFee: M(0.1) };
    const a = one(increasePosition({ ...base, slippage: M(126), referral: false }));
    const b = one(increasePosition({ ...base, slippage: null, referral: true }));
    expect(a).toEqual(b);
    expect(a.rejected).toEqual([]);
    expect(a.fills[0]).toEqual({
      protocol: 'beta',
      time: 1_780_000_000_000,
      slot: 330_000_000,
      tx: 'Sig1111',
      event_index: 0,
      position_key: positionKey.b58,
      address: owner.b58,
      market: 'SOL-PERP',
      market_variant: null,
      side: 'long',
      type: 'open',
      size_delta_usd: 1000,
      position_size_usd: 1000,
      collateral_delta_usd: 100,
      position_collateral_usd: 100,
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
      collateral_token: 'SOL',
      position_entry_price: null, // increase events carry no entry of the program's
    });
  });

  it('InstantIncreasePositionEvent with referral None and Some', () => {
    const base = { sizeUsd: M(2000), sizeDelta: M(2000), collDelta: M(200), price: M(100), positionFee: M(1.2), side: 2, collateralCustody: USDC };
    const a = one(instantIncrease({ ...base, referral: false }));
    const b = one(instantIncrease({ ...base, referral: true }));
    expect(a).toEqual(b);
    expect(a.fills[0]).toMatchObject({ type: 'open', side: 'short', size_delta_usd: 2000, position_collateral_usd: 200, price: 100, fee_usd: 1.2, collateral_token: 'USDC' });
  });
});

describe('beta decreases', () => {
  const dec: Decrease = {
    sizeUsd: M(600),
    sizeDelta: M(400),
    price: M(110),
    profit: false,
    pnl: M(48),
    transferToken: M(3),
    slippage: M(100),
    referral: true,
    collBefore: M(100),
    collAfter: M(60),
    entry: M(125),
    positionFee: M(0.24),
    fundingFee: M(0.05),
  };

  it('DecreasePositionEvent: every combination of its three Options decodes alike', () => {
    const combos = [
      [null, null, false],
      [M(3), null, false],
      [null, M(1), true],
      [M(3), M(1), true],
    ] as const;
    const decoded = combos.map(([t, s, r]) => decodeBetaEvent('DecreasePositionEvent', decreasePosition({ ...dec, transferToken: t, slippage: s, referral: r }).subarray(8)));
    for (const d of decoded) expect(d).toEqual(decoded[0]);
    expect(decoded[0]).toMatchObject({
      direction: 'decrease',
      positionSizeUsd: M(600),
      sizeUsdDelta: M(400),
      price: M(110),
      hasProfit: false,
      pnlDelta: M(48),
      originalPositionCollateralUsd: M(100),
      positionCollateralUsd: M(60),
      positionPrice: M(125),
      positionFeeUsd: M(0.24),
      fundingFeeUsd: M(0.05),
    });
  });

  it('a decrease after an open: size, collateral, PnL, the borrow fee', () => {
    const chain = new PositionChain();
    one(increasePosition({ sizeUsd: M(1000), sizeDelta: M(1000), collDelta: M(100), price: M(125), slippage: null, referral: false }), chain);
    const { fills } = one(decreasePosition(dec), chain);
    expect(fills[0]).toMatchObject({
      type: 'decrease',
      size_delta_usd: -400,
      position_size_usd: 600,
      collateral_delta_usd: -40,
      position_collateral_usd: 60,
      price: 110,
      entry_price: 125,
      pnl_delta_usd: -48,
      fee_usd: 0.24,
      borrowing_fee_usd: 0.05,
      fee_total_usd: 0.29,
      position_entry_price: 125,
    });
  });

  it('InstantDecreasePositionEvent in the 2025 IDL (no trailing field) and the 2026 IDL (positionRequest None / Some)', () => {
    const j1 = decodeBetaEvent('InstantDecreasePositionEvent', instantDecrease({ ...dec, idl: 'J1' }).subarray(8));
    const j2none = decodeBetaEvent('InstantDecreasePositionEvent', instantDecrease({ ...dec, idl: 'J2', positionRequest: false }).subarray(8));
    const j2some = decodeBetaEvent('InstantDecreasePositionEvent', instantDecrease({ ...dec, idl: 'J2', positionRequest: true, referral: false }).subarray(8));
    expect(j1.idl).toBe('J1');
    expect(j2none.idl).toBe('J2');
    expect(j2some.idl).toBe('J2');
    const { idl: _1, ...a } = j1;
    const { idl: _2, ...b } = j2none;
    const { idl: _3, ...c } = j2some;
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    expect(a).toMatchObject({ positionCollateralUsd: M(60), originalPositionCollateralUsd: M(100), positionPrice: M(125), fundingFeeUsd: M(0.05), pnlDelta: M(48) });
  });

  it('a decrease to zero is a close', () => {
    const chain = new PositionChain();
    one(increasePosition({ sizeUsd: M(400), sizeDelta: M(400), collDelta: M(100), price: M(125), slippage: null, referral: false }), chain);
    const { fills } = one(instantDecrease({ ...dec, sizeUsd: 0n, collAfter: 0n, profit: true, idl: 'J1' }), chain);
    expect(fills[0]).toMatchObject({ type: 'close', size_delta_usd: -400, position_size_usd: 0, position_collateral_usd: 0, collateral_delta_usd: -100, pnl_delta_usd: 48, position_entry_price: 125 });
  });
});

describe('beta LiquidateFullPositionEvent', () => {
  it('346 bytes: the whole size closed, the liquidation fee, a loss', () => {
    const chain = new PositionChain();
    one(increasePosition({ sizeUsd: M(1000), sizeDelta: M(1000), collDelta: M(100), price: M(125), slippage: null, referral: false }), chain);
    const { fills } = one(liquidateFull({ sizeUsd: M(1000), price: M(113), profit: false, pnl: M(96), liquidationFee: M(2), collBefore: M(100), positionFee: M(0.6) }), chain);
    expect(fills[0]).toMatchObject({
      type: 'liquidation',
      size_delta_usd: -1000,
      position_size_usd: 0,
      collateral_delta_usd: -100,
      position_collateral_usd: 0,
      price: 113,
      entry_price: 125,
      pnl_delta_usd: -96,
      fee_usd: 0.6,
      liquidation_fee_usd: 2,
      fee_total_usd: 2.6,
    });
    // the event's positionPrice @338, the program's own entry
    expect(fills[0]!.position_entry_price).toBe(125);
  });
});

describe('beta fills that are quarantined', () => {
  const open = { sizeUsd: M(1000), sizeDelta: M(1000), collDelta: M(100), price: M(125), slippage: null, referral: false };

  it('an event one byte longer than its IDL layout', () => {
    const { fills, rejected } = one(concat(increasePosition(open), u8(0)));
    expect(fills).toEqual([]);
    expect(rejected).toEqual([expect.objectContaining({ event: 'IncreasePositionEvent', eventIndex: 0, reason: expect.stringMatching(/1 bytes left after the last documented field/) })]);
  });

  it('a side outside the enum, an unknown custody', () => {
    expect(one(increasePosition({ ...open, side: 3 })).rejected[0]!.reason).toMatch(/positionSide 3/);
    expect(one(increasePosition({ ...open, custody: key(0x77).bytes })).rejected[0]!.reason).toMatch(/positionCustody .* is not a known custody/);
  });

  it("a size that does not fit the journal's DECIMAL(18,6)", () => {
    const { fills, rejected } = one(increasePosition({ ...open, sizeUsd: 2n ** 64n - 1n, sizeDelta: 2n ** 64n - 1n }));
    expect(fills).toEqual([]);
    expect(rejected[0]).toMatchObject({ event: 'IncreasePositionEvent', reason: expect.stringMatching(/size_delta_usd .* does not fit the journal's DECIMAL\(18,6\)/), fill: expect.any(Object) });
  });

  it("a size that contradicts the position's previous fill (positionSizeUsd before/after is unconfirmed)", () => {
    const chain = new PositionChain();
    one(increasePosition(open), chain);
    const { rejected } = one(increasePosition({ ...open, sizeUsd: M(1500), sizeDelta: M(200) }), chain);
    expect(rejected[0]!.reason).toMatch(/implies a size of 1300000000 µUSD before it, the position's previous fill left 1000000000/);
  });
});
