/**
 * Golden vectors, beta (Jupiter Perpetuals): the five position events laid out by hand, field by
 * field (order inferred from protocols.md's field list, see server/sources/solana/layout.ts),
 * decode through the event-CPI framing to the expected journal fills.
 */
import { describe, expect, it } from 'vitest';
import { CollateralChain } from '../server/sources/solana/chain.ts';
import { b58, concat, fromHex, key, keyBytes, u64, u8, zeros } from './helpers/solana-bytes.ts';
import { BETA, decode, TAG, txOf } from './helpers/solana-golden.ts';

const SOL_CUSTODY = keyBytes('7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz');
const USDC_CUSTODY = keyBytes('G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa');
const owner = key(0x21);
const betaPos = key(0x22);
const M = 1_000_000n; // beta: 6 decimals
const none = u8(0); // Borsh Option::None
const some = (v: bigint) => concat(u8(1), u64(v)); // Borsh Option::Some(u64)

/** The shared head of beta position events (inferred order, see layout.ts). */
function betaHead(h: {
  side: number; custody: Uint8Array; collateralCustody: Uint8Array; sizeDelta: bigint; size: bigint;
  collDelta: bigint; coll: bigint; price: bigint; entry: bigint; fee: bigint; positionFee: bigint;
  borrow: Uint8Array; impact: Uint8Array;
}): Uint8Array {
  return concat(
    betaPos.bytes, u8(h.side), h.custody, h.collateralCustody, owner.bytes, // position key, side, custody, collateral custody, owner
    u64(h.sizeDelta), u64(h.size), u64(h.collDelta), u64(h.coll), // size delta, position size, collateral delta, position collateral
    u64(h.price), u64(h.entry), u64(h.fee), u64(h.positionFee), // price, position price, fee, position fee
    h.borrow, h.impact, // funding (borrow) fee, price-impact fee: options
  );
}

describe('beta events', () => {
  const tx = (events: Uint8Array[]) => txOf(BETA, events, 331_000_000, 1_780_100_000);

  it('IncreasePositionEvent opens a long', () => {
    const ev = concat(fromHex('f5715534d6bb9984'), betaHead({
      side: 1, custody: SOL_CUSTODY, collateralCustody: SOL_CUSTODY, sizeDelta: 2000n * M, size: 2000n * M,
      collDelta: 200n * M, coll: 198_800_000n, price: 130_500_000n, entry: 130_500_000n, fee: 1_200_000n,
      positionFee: 1_200_000n, borrow: none, impact: none,
    }));
    const [f] = decode(tx([ev]));
    expect(f).toEqual({
      protocol: 'beta', time: 1_780_100_000_000, slot: 331_000_000, tx: 'Sig1111', event_index: 0,
      position_key: betaPos.b58, address: owner.b58, market: 'SOL-PERP', market_variant: null,
      side: 'long', type: 'open', size_delta_usd: 2000, position_size_usd: 2000,
      collateral_delta_usd: 198.8, position_collateral_usd: 198.8, price: 130.5, entry_price: 130.5,
      pnl_delta_usd: 0, fee_usd: 1.2, borrowing_fee_usd: null, funding_fee_usd: null,
      liquidation_fee_usd: null, funding_earned_usd: null, fee_total_usd: 1.2, index_price: 130.5,
      collateral_token: 'SOL',
    });
  });

  it('InstantIncreasePositionEvent with zero size delta is a collateral edit (increase)', () => {
    const ev = concat(fromHex('cdec3904d16a5745'), betaHead({
      side: 2, custody: SOL_CUSTODY, collateralCustody: USDC_CUSTODY, sizeDelta: 0n, size: 1000n * M,
      collDelta: 50n * M, coll: 200n * M, price: 120n * M, entry: 125n * M, fee: 0n, positionFee: 0n,
      borrow: some(10_000n), impact: none,
    }));
    const [f] = decode(tx([ev]));
    expect(f).toMatchObject({
      side: 'short', type: 'increase', size_delta_usd: 0, collateral_delta_usd: 50, position_collateral_usd: 200,
      borrowing_fee_usd: 0.01, fee_total_usd: 0.01, entry_price: 125, collateral_token: 'USDC',
    });
  });

  it('InstantDecreasePositionEvent: a partial decrease with profit, chained collateral', () => {
    const ev = concat(fromHex('abad6a19efbe3a3b'), betaHead({
      side: 2, custody: SOL_CUSTODY, collateralCustody: USDC_CUSTODY, sizeDelta: 500n * M, size: 1000n * M,
      collDelta: 50n * M, coll: 300n * M, price: 120n * M, entry: 125n * M, fee: 300_000n, positionFee: 300_000n,
      borrow: some(50_000n), impact: some(0n),
    }), u8(1), u64(20n * M)); // has_profit, pnl_delta
    const chain = new CollateralChain();
    chain.record({ protocol: 'beta', position_key: betaPos.b58, position_size_usd: 1500, position_collateral_usd: 349.9 } as never);
    const [f] = decode(tx([ev]), [], chain);
    expect(f).toMatchObject({
      type: 'decrease', size_delta_usd: -500, position_size_usd: 1000, collateral_delta_usd: -49.9,
      position_collateral_usd: 300, pnl_delta_usd: 20, fee_usd: 0.3, borrowing_fee_usd: 0.05, fee_total_usd: 0.35,
    });
  });

  it('DecreasePositionEvent to size 0 is a close; two events in one tx get event_index 0 and 1', () => {
    const close = (pnl: bigint, profit: number) => concat(fromHex('409c2b4a6d83107f'), betaHead({
      side: 1, custody: SOL_CUSTODY, collateralCustody: SOL_CUSTODY, sizeDelta: 1000n * M, size: 0n,
      collDelta: 95n * M, coll: 0n, price: 110n * M, entry: 100n * M, fee: 600_000n, positionFee: 600_000n,
      borrow: none, impact: none,
    }), u8(profit), u64(pnl));
    const fills = decode(tx([close(100n * M, 1), close(5n * M, 0)]));
    expect(fills.map((f) => [f.type, f.event_index, f.pnl_delta_usd, f.collateral_delta_usd])).toEqual([
      ['close', 0, 100, -95],
      ['close', 1, -5, -95],
    ]);
  });

  it('skips an event of an unknown custody without shifting the next event_index', () => {
    const open = (custody: Uint8Array) => concat(fromHex('f5715534d6bb9984'), betaHead({
      side: 1, custody, collateralCustody: custody, sizeDelta: 10n * M, size: 10n * M, collDelta: 5n * M, coll: 5n * M,
      price: 100n * M, entry: 100n * M, fee: 0n, positionFee: 0n, borrow: none, impact: none,
    }));
    const fills = decode(tx([open(key(0x41).bytes), open(SOL_CUSTODY)]));
    expect(fills.map((f) => [f.market, f.event_index])).toEqual([['SOL-PERP', 1]]);
  });

  it('LiquidateFullPositionEvent is a liquidation with its fee', () => {
    const ev = concat(fromHex('806547a880485654'), betaHead({
      side: 1, custody: SOL_CUSTODY, collateralCustody: SOL_CUSTODY, sizeDelta: 1000n * M, size: 0n,
      collDelta: 30n * M, coll: 0n, price: 100n * M, entry: 120n * M, fee: 600_000n, positionFee: 600_000n,
      borrow: some(100_000n), impact: none,
    }), u8(0), u64(166_670_000n), u64(2n * M)); // has_profit, pnl_delta, liquidation fee
    const [f] = decode(tx([ev]));
    expect(f).toMatchObject({
      type: 'liquidation', size_delta_usd: -1000, position_size_usd: 0, collateral_delta_usd: -30,
      pnl_delta_usd: -166.67, fee_usd: 0.6, borrowing_fee_usd: 0.1, liquidation_fee_usd: 2, fee_total_usd: 2.7,
      price: 100, entry_price: 120,
    });
  });

  it('ignores failed transactions, other programs and instructions without the event tag', () => {
    const ev = concat(fromHex('f5715534d6bb9984'), zeros(10));
    const failed = tx([ev]);
    failed.meta!.err = { InstructionError: [0, 'Custom'] };
    expect(decode(failed)).toEqual([]);
    const other = tx([]);
    other.meta!.innerInstructions = [{ index: 0, instructions: [{ programIdIndex: 0, data: b58(concat(TAG, ev)) }, { programIdIndex: 1, data: b58(ev) }] }];
    expect(decode(other)).toEqual([]);
    expect(() => decode(tx([ev]))).toThrow(/IncreasePositionEvent: cannot decode/);
  });
});
