/**
 * Golden vectors, alpha (GMX-Solana): TradeEvent, PositionIncreased and OrderRemoved bytes, Market
 * and Position accounts laid out by hand, field by field, from the layout facts of
 * shared/design/protocols.md (and the inferred layouts documented in server/sources/solana/
 * layout.ts), decode through the event-CPI framing to the expected journal rows.
 */
import { describe, expect, it } from 'vitest';
import { CollateralChain } from '../server/sources/solana/chain.ts';
import { decodeMarketAccount, parseMarketName } from '../server/sources/solana/decode-alpha.ts';
import { eventsOf } from '../server/sources/solana/events.ts';
import { AlphaMarkets } from '../server/sources/solana/markets.ts';
import { LatestPrices, pollAlphaPositions } from '../server/sources/solana/positions.ts';
import { SolanaRpc } from '../server/sources/solana/rpc.ts';
import { concat, fromHex, i128, i64, key, keyBytes, u128, u64, u8, zeros } from './helpers/solana-bytes.ts';
import { ALPHA, decode, txOf } from './helpers/solana-golden.ts';
import { MockChain, startMockRpc } from './helpers/solana-mock-rpc.ts';

const USD20 = 10n ** 20n; // alpha USD: 20 decimals

const store = key(0x01);
const solMarketToken = key(0x02);
const btcMarketToken = key(0x03);
const user = key(0x04);
const position = key(0x05);
const order = key(0x06);
const SOL_MARKET = parseMarketName('SOL/USD[WSOL-USDC]', solMarketToken.b58)!;
const BTC_MARKET = parseMarketName('BTC/USD[USDC-USDC]', btcMarketToken.b58)!;

/** Position state: 4 × 8-byte header, 7 × u128, 128 reserved bytes (272 bytes). */
function positionState(s: { tokens: bigint; collateral: bigint; sizeUsd: bigint }): Uint8Array {
  return concat(
    u64(7), // trade_id
    i64(1_780_000_000), // increased_at
    u64(330_000_000), // updated_at_slot
    i64(0), // decreased_at
    u128(s.tokens), // size_in_tokens
    u128(s.collateral), // collateral_amount
    u128(s.sizeUsd), // size_in_usd
    u128(0), // borrowing_factor
    u128(0), // funding_fee_amount_per_size
    u128(0), // long_token_claimable_funding_amount_per_size
    u128(0), // short_token_claimable_funding_amount_per_size
    zeros(128), // reserved
  );
}
const EMPTY = positionState({ tokens: 0n, collateral: 0n, sizeUsd: 0n });

interface Trade {
  flags: number;
  market: Uint8Array;
  ts: number;
  before: Uint8Array;
  after: Uint8Array;
  /** [index, long, short] unit prices (× 1e20 per smallest unit), min and max */
  prices: [bigint, bigint][];
  execution: bigint;
  pnl: bigint;
  /** nine u128 fees in collateral-token units */
  fees: bigint[];
}

function tradeEvent(t: Trade): Uint8Array {
  return concat(
    fromHex('bddb7fd34ee661ee'), // TradeEvent discriminator
    u8(t.flags), zeros(7), // flags, padding
    u64(7), // trade_id
    key(0x09).bytes, store.bytes, t.market, user.bytes, position.bytes, order.bytes, key(0x0a).bytes, // authority … final_output_token
    i64(t.ts), u64(330_000_000), // ts, slot
    t.before, t.after,
    u8(1), zeros(7), zeros(64), // transfer_out: executed, padding, eight u64 amounts
    zeros(8), // padding
    ...t.prices.flatMap(([min, max]) => [u128(min), u128(max)]), // index, long, short
    u128(t.execution), // execution_price
    i128(0), u128(0), // price_impact_value, price_impact_diff
    i128(t.pnl), i128(t.pnl), // pnl, uncapped_pnl
    ...t.fees.map(u128),
    u128(0), u128(0), // output_amounts
  );
}

/** PositionIncreased (inferred layout): rev, market token, position, five USD values (20 decimals). */
function positionIncreased(market: Uint8Array, usd: bigint[]): Uint8Array {
  return concat(fromHex('493af7b564edf951'), u64(1), market, position.bytes, ...usd.map(u128));
}

/** OrderRemoved (inferred layout): id, ts, slot, store, order, kind, market token, owner. */
function orderRemoved(kind: number, market: Uint8Array): Uint8Array {
  return concat(fromHex('549b798ef0eb9017'), u64(3), i64(1_780_000_000), u64(330_000_000), store.bytes, order.bytes, u8(kind), market, user.bytes);
}

const SOL_125 = 12_500_000_000_000n; // $125 per SOL = 125e20 / 1e9 per lamport
const USDC_1 = 100_000_000_000_000n; // $1 per USDC = 1e20 / 1e6 per micro-USDC

describe('alpha TradeEvent', () => {
  it('an open long with USDC collateral and the USD fee values of PositionIncreased', () => {
    const trade = tradeEvent({
      flags: 0b101, // long, collateral = short token (USDC), increase
      market: solMarketToken.bytes,
      ts: 1_780_000_123,
      before: EMPTY,
      after: positionState({ tokens: 8_000_000_000n /* 8 SOL */, collateral: 99_300_000n /* 99.3 USDC */, sizeUsd: 1000n * USD20 }),
      prices: [[SOL_125 - 1_000_000_000n, SOL_125 + 1_000_000_000n], [SOL_125, SOL_125], [USDC_1, USDC_1]],
      execution: SOL_125,
      pnl: 0n,
      fees: [200_000n, 500_000n, 0n, 0n, 0n, 0n, 0n, 0n, 0n], // order fee 0.2 + 0.5 USDC
    });
    const fees = positionIncreased(solMarketToken.bytes, [7n * 10n ** 19n /* $0.70 */, 0n, 0n, 0n, 0n]);
    const [f] = decode(txOf(ALPHA, [fees, trade]), [SOL_MARKET]);
    expect(f).toMatchObject({
      protocol: 'alpha', time: 1_780_000_123_000, slot: 330_000_000, tx: 'Sig1111', event_index: 0,
      position_key: position.b58, address: user.b58, market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]',
      side: 'long', type: 'open', size_delta_usd: 1000, position_size_usd: 1000,
      collateral_delta_usd: 99.3, position_collateral_usd: 99.3, pnl_delta_usd: 0,
      fee_usd: 0.7, borrowing_fee_usd: null, funding_fee_usd: null, liquidation_fee_usd: null,
      funding_earned_usd: null, fee_total_usd: 0.7, collateral_token: 'USDC',
    });
    expect(f!.price).toBeCloseTo(125, 10);
    expect(f!.entry_price).toBeCloseTo(125, 10);
    expect(f!.index_price).toBeCloseTo(125, 10);
  });

  it('a liquidation (OrderRemoved kind Liquidation) valued from collateral-token fees, WSOL collateral', () => {
    const SOL_140 = 14_000_000_000_000n;
    const trade = tradeEvent({
      flags: 0b010, // short, collateral = long token (WSOL), decrease
      market: solMarketToken.bytes,
      ts: 1_780_000_200,
      before: positionState({ tokens: 8_000_000_000n, collateral: 500_000_000n /* 0.5 SOL */, sizeUsd: 1000n * USD20 }),
      after: EMPTY,
      prices: [[SOL_140, SOL_140], [SOL_140, SOL_140], [USDC_1, USDC_1]],
      execution: SOL_140,
      pnl: -120n * USD20,
      // order fee 0.005 SOL (split), liquidation fee 0.01 SOL (and its receiver share), borrowing 0.001 SOL
      fees: [1_000_000n, 4_000_000n, 10_000_000n, 3_000_000n, 1_000_000n, 100_000n, 0n, 0n, 0n],
    });
    const [f] = decode(txOf(ALPHA, [trade, orderRemoved(0, solMarketToken.bytes)]), [SOL_MARKET]);
    expect(f).toMatchObject({
      side: 'short', type: 'liquidation', size_delta_usd: -1000, position_size_usd: 0,
      position_collateral_usd: 0, collateral_delta_usd: -70, // 0.5 SOL at $140 before, nothing after
      pnl_delta_usd: -120, fee_usd: 0.7, borrowing_fee_usd: 0.14, funding_fee_usd: null,
      liquidation_fee_usd: 1.4, fee_total_usd: 2.24, collateral_token: 'WSOL',
    });
    expect(f!.entry_price).toBeCloseTo(125, 10); // a closed position keeps its entry
    expect(f!.price).toBeCloseTo(140, 10);
  });

  it('a full close without liquidation fee or Liquidation order is a close', () => {
    const trade = tradeEvent({
      flags: 0b001, market: solMarketToken.bytes, ts: 1_780_000_300,
      before: positionState({ tokens: 8_000_000_000n, collateral: 99_300_000n, sizeUsd: 1000n * USD20 }),
      after: EMPTY,
      prices: [[SOL_125, SOL_125], [SOL_125, SOL_125], [USDC_1, USDC_1]],
      execution: SOL_125, pnl: 0n, fees: [0n, 700_000n, 0n, 0n, 0n, 0n, 0n, 0n, 0n],
    });
    const chain = new CollateralChain();
    const [f] = decode(txOf(ALPHA, [trade, orderRemoved(4 /* MarketDecrease */, solMarketToken.bytes)]), [SOL_MARKET], chain);
    expect(f).toMatchObject({ type: 'close', collateral_delta_usd: -99.3, fee_usd: 0.7 });
  });

  it('a collateral edit (size unchanged) continues the collateral chain of the position', () => {
    const BTC_100K = 100_000n * USD20 / 10n ** 8n; // $100,000 per BTC over 8 decimals
    const state = (collateral: bigint) => positionState({ tokens: 5_000_000n /* 0.05 BTC */, collateral, sizeUsd: 5000n * USD20 });
    const trade = tradeEvent({
      flags: 0b111, // long, collateral = long token (USDC), increase
      market: btcMarketToken.bytes, ts: 1_780_000_400,
      before: state(500_000_000n), after: state(650_000_000n),
      prices: [[BTC_100K, BTC_100K], [USDC_1, USDC_1], [USDC_1, USDC_1]],
      execution: BTC_100K, pnl: 0n, fees: Array(9).fill(0n),
    });
    const chain = new CollateralChain();
    chain.record({ protocol: 'alpha', position_key: position.b58, position_size_usd: 5000, position_collateral_usd: 499.5 } as never);
    const [f] = decode(txOf(ALPHA, [positionIncreased(btcMarketToken.bytes, [0n, 0n, 0n, 0n, 0n]), trade]), [BTC_MARKET], chain);
    expect(f).toMatchObject({
      market: 'BTC-PERP', market_variant: 'BTC/USD[USDC-USDC]', type: 'increase', size_delta_usd: 0,
      position_collateral_usd: 650, collateral_delta_usd: 150.5, fee_usd: 0, fee_total_usd: 0, collateral_token: 'USDC',
    });
    expect(f!.entry_price).toBeCloseTo(100_000, 6);
    expect(chain.get('alpha', position.b58)).toBe(650_000_000n);
  });

  it('skips the trades of a market whose index token decimals are unknown', () => {
    const dogeToken = key(0x07);
    const trade = tradeEvent({
      flags: 0b101, market: dogeToken.bytes, ts: 1, before: EMPTY,
      after: positionState({ tokens: 1n, collateral: 1n, sizeUsd: USD20 }),
      prices: [[1n, 1n], [USDC_1, USDC_1], [USDC_1, USDC_1]], execution: 1n, pnl: 0n, fees: Array(9).fill(0n),
    });
    expect(decode(txOf(ALPHA, [trade]), [parseMarketName('DOGE/USD[USDC-USDC]', dogeToken.b58)!])).toEqual([]);
  });

  it('a Market account gives its name and market token', () => {
    const name = new TextEncoder().encode('XAU/USD[USDC-USDC]');
    const account = concat(
      fromHex('dbbed53700e3c69a'), // Market discriminator (inferred: sha256("account:Market"))
      zeros(16), // header up to the name
      name, zeros(64 - name.length), // name: 64 bytes at offset 24
      btcMarketToken.bytes, // market token at 88 (inferred)
      zeros(200),
    );
    expect(decodeMarketAccount(account)).toEqual({ name: 'XAU/USD[USDC-USDC]', marketToken: btcMarketToken.b58 });
    expect(parseMarketName('XAU/USD[USDC-USDC]')).toMatchObject({ index: 'XAU', long: 'USDC', short: 'USDC' });
    expect(decodeMarketAccount(concat(zeros(8), account.subarray(8)))).toBeNull();
  });
});

describe('alpha markets from Market accounts', () => {
  it('finds a market by its token at offset 88, or anywhere in one account when the offset is off', async () => {
    const named = (name: string, at88: Uint8Array, later: Uint8Array) => {
      const n = new TextEncoder().encode(name);
      return concat(fromHex('dbbed53700e3c69a'), zeros(16), n, zeros(64 - n.length), at88, zeros(64), later, zeros(50));
    };
    const chain = new MockChain();
    chain.accounts.set(ALPHA, [
      { pubkey: key(0x51).b58, data: named('SOL/USD[WSOL-USDC]', solMarketToken.bytes, key(0x60).bytes) },
      { pubkey: key(0x52).b58, data: named('BTC/USD[USDC-USDC]', key(0x61).bytes, btcMarketToken.bytes) }, // token at 184, not 88
    ]);
    const server = await startMockRpc(chain);
    try {
      const markets = new AlphaMarkets(new SolanaRpc({ url: server.url }));
      await markets.load();
      expect(markets.get(solMarketToken.b58)?.name).toBe('SOL/USD[WSOL-USDC]');
      expect(markets.get(btcMarketToken.b58)).toMatchObject({ name: 'BTC/USD[USDC-USDC]', marketToken: btcMarketToken.b58, index: 'BTC' });
      expect(markets.get(key(0x62).b58)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

describe('alpha Position account → poll snapshot', () => {
  it('reads size and collateral at the documented offsets, valued at the latest prices of its market', async () => {
    const SOL_150 = 15_000_000_000_000n;
    const account = concat(
      fromHex('aabc8fe47a40f7d0'), // Position discriminator
      zeros(34), // up to offset 42
      u8(1), // kind at 42: long
      zeros(13), // up to 56
      user.bytes, // owner at 56
      solMarketToken.bytes, // market token at 88
      keyBytes('So11111111111111111111111111111111111111112'), // collateral token at 120 (WSOL)
      positionState({ tokens: 8_000_000_000n, collateral: 2_000_000_000n /* 2 SOL */, sizeUsd: 1000n * USD20 }), // state at 152
      zeros(680 - 152 - 272),
    );
    const chain = new MockChain();
    chain.accounts.set(ALPHA, [
      { pubkey: position.b58, data: account },
      { pubkey: key(0x31).b58, data: account }, // a position the journal does not have open: skipped
      { pubkey: solMarketToken.b58, data: concat(fromHex('dbbed53700e3c69a'), zeros(16), new TextEncoder().encode('SOL/USD[WSOL-USDC]'), zeros(46), solMarketToken.bytes, zeros(100)) },
    ]);
    const server = await startMockRpc(chain);
    try {
      const rpc = new SolanaRpc({ url: server.url });
      const markets = new AlphaMarkets(rpc);
      await markets.load();
      const prices = new LatestPrices();
      const [trade] = eventsOf(txOf(ALPHA, [tradeEvent({
        flags: 0b101, market: solMarketToken.bytes, ts: 1, before: EMPTY, after: EMPTY,
        prices: [[SOL_150, SOL_150], [SOL_150, SOL_150], [USDC_1, USDC_1]], execution: SOL_150, pnl: 0n, fees: Array(9).fill(0n),
      })]));
      prices.record((trade as { body: Parameters<LatestPrices['record']>[0] }).body);
      const open = new CollateralChain();
      open.record({ protocol: 'alpha', position_key: position.b58, position_size_usd: 1000, position_collateral_usd: 290 } as never);
      const snaps = await pollAlphaPositions(rpc, { markets, prices, chain: open }, 1_780_000_000_000);
      expect(snaps).toEqual([{
        time: 1_780_000_000_000, protocol: 'alpha', position_key: position.b58, size_usd: 1000, collateral_usd: 300,
        unsettled_borrowing_usd: 0, unsettled_funding_usd: 0, claimable_funding_usd: 0, mark_price: 150,
        liquidation_price: null, source: 'poll',
      }]);
    } finally {
      await server.close();
    }
  });
});
