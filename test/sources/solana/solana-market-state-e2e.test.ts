/**
 * End to end through the mock RPC: the solana source, once it follows the chain, reads market
 * state from accounts the mock serves (alpha Store, TokenMap, Market, PriceFeed and Position
 * accounts; beta Pool, Custody, Doves and Pyth oracle and Position accounts, all laid out here at
 * the documented offsets) and appends a market snapshot per market per minute and `poll`
 * snapshots of the open positions. Every number is checked against a value worked out by hand
 * below; the source is stopped half-way and restarted on a reopened service, and the journal must
 * then hold one row per market per minute (none lost, none doubled), the integrated funding
 * continuing across the restart, and beta's index price falling back to the latest fill's when
 * its oracle accounts go stale or away.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingFill } from '../../../server/journal/rows.ts';
import { openService } from '../../../server/service.ts';
import { startSolanaSource, type SolanaSourceOptions } from '../../../server/sources/solana/indexer.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';
import { fromHex, keyBytes, le } from '../../helpers/solana-bytes.ts';
import { AccountBook, labelKey, laid } from '../../helpers/solana-mock-accounts.ts';
import { MockChain, startMockRpc, type MockRpc } from '../../helpers/solana-mock-rpc.ts';

const ALPHA = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const BETA = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';
const DOVES = 'DoVEsk76QybCEHQGzkvYPWLQu9gzNoZZZt3TPiL597e';
const PYTH = 'rec5EKMGg6MxZYaMdyBfgwp4d5rB9T1VQH5pJv5LtFJ';
const STORE = 'CTDLvGGXnoxvqLyTpGzdGLg9pD6JexKxKXSV8tqqo8bN';
const JLP = '5BUwFW4nRbftYTDMbgxykoFWqWHPzahFSNAaaaJtVKsq';
const WSOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL_CUSTODY = '7xS2gz2bTp3fwCC7knJvUWTEU9Tycczu6VhJYKgi1wdz';
const USDC_CUSTODY = 'G18jKKXQwBbrHeiK3C9MRXhkHsLHf7XgCSisykV46EZa';
const [MARKET, MARKET_TOKEN, TOKEN_MAP, FEED_SOL, AG_SOL, AG_USDC, PYTH_SOL, PYTH_USDC, P1, P2, TRADER, BROKEN_MARKET, P3] = [
  'market',
  'market-token',
  'token-map',
  'feed-sol',
  'ag-sol',
  'ag-usdc',
  'pyth-sol',
  'pyth-usdc',
  'alpha-position',
  'beta-position',
  'trader',
  'broken-market',
  'unknown-position',
].map(labelKey) as [string, string, string, string, string, string, string, string, string, string, string, string, string];

/** USDC is priced by Pyth in this token map: its sponsored push feed (oracle-prices.md §3c), no store PriceFeed */
const USDC_FEED_ID = 'eaa020c61cc479712813461ce153894a96a6c00b21ed0cfc2798d1f9a9e9c94a';
const PUSH_USDC = 'Dpw1EAVrSB1ibxiDQyTAW6Zip3J4Btk2x4SgApQCeFbX';
const E20 = 10n ** 20n;
const u128 = (v: bigint) => le(v, 16);
const k = (b58: string) => keyBytes(b58);
const T0 = Date.UTC(2026, 5, 1);
const C0 = T0 + 2 * 3_600_000; // the poller's first pass (minute-aligned)
const C0S = C0 / 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The accounts of both programs, as in test/sources/solana/solana-market-state.test.ts (its comments give the numbers). */
function book(): AccountBook {
  const b = new AccountBook();
  b.set(
    STORE,
    ALPHA,
    laid(4600, [
      [0, fromHex('8230f7f4b6bf1e1a')],
      [4568, k(TOKEN_MAP)],
    ]),
  );
  b.set(
    TOKEN_MAP,
    ALPHA,
    laid(8564 + 2 * 328, [
      [0, fromHex('6b2b1b18f53e917e')],
      [48, k(WSOL)],
      [80, Uint8Array.of(0)],
      [81, k(USDC)],
      [113, Uint8Array.of(1)],
      [8496, le(2, 4)],
      [8564 + 33, Uint8Array.of(9)],
      [8564 + 328 + 33, Uint8Array.of(6)],
      [8564 + 328 + 35, Uint8Array.of(1)],
      [8564 + 328 + 36 + 64, fromHex(USDC_FEED_ID)], // USDC: expected provider Pyth, feeds[1]
    ]),
  );
  const feed = (token: string, price: bigint) =>
    laid(488, [
      [0, fromHex('bd67fc179823f39c')],
      [24, k(STORE)],
      [88, k(token)],
      [168, Uint8Array.of(8)],
      [176, le(C0S - 10, 8)],
      [184, u128(price)],
      [200, u128(price)],
      [216, u128(price)],
    ]);
  b.set(FEED_SOL, ALPHA, feed(WSOL, 100n * 10n ** 8n));
  // USDC's push feed: Full PriceUpdateV2, $1.00000000 ± 0 (expo −8)
  b.set(
    PUSH_USDC,
    PYTH,
    laid(134, [
      [0, fromHex('22f123639d7ef4cd')],
      [40, Uint8Array.of(1)],
      [41, fromHex(USDC_FEED_ID)],
      [73, le(10n ** 8n, 8)],
      [89, le(-8, 4)],
      [93, le(C0S - 10, 8)],
    ]),
  );
  b.set(
    MARKET,
    ALPHA,
    laid(9176, [
      [0, fromHex('dbbed53700e3c69a')],
      [24, new TextEncoder().encode('SOL/USD[WSOL-USDC]')],
      [88, k(MARKET_TOKEN)],
      [120, k(WSOL)],
      [152, k(WSOL)],
      [184, k(USDC)],
      [216, k(STORE)],
      [376, u128(E20)],
      [392, u128(E20 / 100n)],
      [552, u128((5n * E20) / 10_000n)],
      [568, u128((7n * E20) / 10_000n)],
      [680, u128(5n * 10n ** 11n)],
      [712, u128(E20)],
      [728, u128(E20 / 2n)],
      [760, u128(10n ** 12n)],
      [792, u128(3n * 10n ** 12n)],
      [824, u128(E20)],
      [840, u128(2n * 10n ** 12n)],
      [856, u128(5n * 10n ** 12n)],
      [968, u128(E20)],
      [1208, u128(500_000n * E20)],
      [1224, u128(500_000n * E20)],
      [1256, u128(E20 / 100n)],
      [1992, u128(10_000n * 10n ** 9n)],
      [2008, u128(500_000n * 10n ** 6n)],
      [2184, u128(300_000n * E20)],
      [2264, u128(100_000n * E20)],
      [2312, u128(3_000n * 10n ** 9n)],
      [2504, u128(5n * 10n ** 18n)],
      [2568, u128(2n * 10n ** 15n)],
      [2696, u128(3n * 10n ** 14n)],
      [2712, u128(2n * 10n ** 12n)],
      [4032, le(C0S - 100, 8)],
      [4040, le(C0S - 100, 8)],
    ]),
  );
  b.set(
    P1,
    ALPHA,
    laid(680, [
      [0, fromHex('aabc8fe47a40f7d0')],
      [10, k(STORE)],
      [42, Uint8Array.of(1)],
      [56, k(TRADER)],
      [88, k(MARKET_TOKEN)],
      [120, k(WSOL)],
      [184, u128(300n * 10n ** 9n)],
      [200, u128(50n * 10n ** 9n)],
      [216, u128(30_000n * E20)],
      [232, u128(4n * 10n ** 18n)],
      [248, u128(10n ** 15n)],
      [264, u128(2n * 10n ** 14n)],
      [280, u128(10n ** 12n)],
    ]),
  );
  // a Market account cut short (a layout the decoder cannot trust) is skipped with a warning
  b.set(BROKEN_MARKET, ALPHA, b.accounts.get(MARKET)!.data.slice(0, 4000));
  // an open position on chain that the journal does not hold open gets no snapshot
  b.set(P3, ALPHA, b.accounts.get(P1)!.data.slice());
  b.set(
    JLP,
    BETA,
    laid(100, [
      [0, fromHex('f19a6d0411b16dbc')],
      [8, le(4, 4)],
      [12, new TextEncoder().encode('Pool')],
      [16, le(2, 4)],
      [20, k(SOL_CUSTODY)],
      [52, k(USDC_CUSTODY)],
      [84, u128(1n)],
    ]),
  );
  b.set(
    SOL_CUSTODY,
    BETA,
    laid(1060, [
      [0, fromHex('01b830515d833f91')],
      [8, k(JLP)],
      [40, k(WSOL)],
      [104, Uint8Array.of(9)],
      [106, k(PYTH_SOL)],
      [138, Uint8Array.of(2)],
      [151, le(1_250_000_000_000_000n, 8)],
      [175, le(5_000_000n, 8)],
      [222, le(1_000_000n, 8)],
      [230, le(400_000n, 8)],
      [262, u128(123_456_789_012n)],
      [278, le(C0S, 8)],
      [304, le(7n, 8)],
      [352, le(500n, 8)],
      [360, le(15_000n, 8)],
      [368, le(4_000n, 8)],
      [376, le(800_000_000n, 8)],
      [384, k(AG_SOL)],
      [1004, u128(3_000_000_000n)],
      [1020, u128(1_000_000_000n)],
    ]),
  );
  b.set(
    USDC_CUSTODY,
    BETA,
    laid(1060, [
      [0, fromHex('01b830515d833f91')],
      [8, k(JLP)],
      [40, k(USDC)],
      [104, Uint8Array.of(6)],
      [105, Uint8Array.of(1)],
      [106, k(PYTH_USDC)],
      [384, k(AG_USDC)],
    ]),
  );
  const ag = (price: bigint, ts: number) =>
    laid(202, [
      [0, fromHex('70f98bd9d7d0f936')],
      [168, le(price, 8)],
      [176, le(-8, 1)],
      [177, le(ts, 8)],
    ]);
  b.set(AG_SOL, DOVES, ag(100n * 10n ** 8n, C0S - 5));
  b.set(AG_USDC, DOVES, ag(10n ** 8n, C0S - 10_000)); // stale
  const pyth = (price: bigint) =>
    laid(134, [
      [0, fromHex('22f123639d7ef4cd')],
      [40, Uint8Array.of(1)],
      [73, le(price, 8)],
      [89, le(-8, 4)],
      [93, le(C0S - 5, 8)],
    ]);
  b.set(PYTH_SOL, PYTH, pyth(99n * 10n ** 8n));
  b.set(PYTH_USDC, PYTH, pyth(10n ** 8n));
  b.set(
    P2,
    BETA,
    laid(210, [
      [0, fromHex('aabc8fe47a40f7d0')],
      [8, k(TRADER)],
      [40, k(JLP)],
      [72, k(SOL_CUSTODY)],
      [104, k(SOL_CUSTODY)],
      [152, Uint8Array.of(1)],
      [153, le(150_000_000n, 8)],
      [161, le(20_000_000_000n, 8)],
      [169, le(2_000_000_000n, 8)],
      [185, u128(123_455_789_012n)],
    ]),
  );
  return b;
}

function fill(protocol: 'alpha' | 'beta', over: Partial<IncomingFill>): IncomingFill {
  return {
    protocol,
    time: T0,
    slot: 10,
    tx: `tx-${protocol}`,
    event_index: 0,
    position_key: '',
    address: TRADER,
    market: 'SOL-PERP',
    market_variant: null,
    side: 'long',
    type: 'open',
    size_delta_usd: 0,
    position_size_usd: 0,
    collateral_delta_usd: 0,
    position_collateral_usd: 0,
    price: 0,
    entry_price: 0,
    pnl_delta_usd: 0,
    fee_usd: 0,
    borrowing_fee_usd: null,
    funding_fee_usd: null,
    liquidation_fee_usd: null,
    funding_earned_usd: null,
    fee_total_usd: 0,
    index_price: 0,
    collateral_token: null,
    position_entry_price: null,
    ...over,
  };
}

describe('solana market state from accounts, end to end (mock RPC)', () => {
  const data = tempDataDir();
  let chain: MockChain;
  let rpc: MockRpc;
  let clock = C0;
  let accounts: AccountBook;

  beforeAll(async () => {
    chain = new MockChain();
    accounts = book();
    chain.book = accounts;
    rpc = await startMockRpc(chain, { rateLimitEvery: 23, serverErrorEvery: 37 });
    // the journal already holds the two positions' opening fills (as a backfill would have left it)
    const service = await openService({ dataDir: data.dir });
    await service.append(
      {
        fills: [
          fill('alpha', {
            position_key: P1,
            market_variant: 'SOL/USD[WSOL-USDC]',
            size_delta_usd: 30_000,
            position_size_usd: 30_000,
            collateral_delta_usd: 5_000,
            position_collateral_usd: 5_000,
            price: 100,
            entry_price: 100,
            index_price: 100,
            collateral_token: 'WSOL',
          }),
          fill('beta', {
            position_key: P2,
            size_delta_usd: 20_000,
            position_size_usd: 20_000,
            collateral_delta_usd: 2_000,
            position_collateral_usd: 2_000,
            price: 150,
            entry_price: 150,
            index_price: 150,
            collateral_token: 'SOL',
            event_index: 1,
          }),
        ],
        marketSnapshots: [],
        positionSnapshots: [],
        checkpoint: { slot: 10, done: ['tx-alpha', 'tx-beta'] },
      },
      { source: 'solana' },
    );
    await service.close();
  });

  afterAll(async () => {
    await rpc?.close();
    data.cleanup();
  });

  const options = (): SolanaSourceOptions => ({ url: rpc.url, pollMs: 20, snapshotEveryMs: 40, positionsEveryMs: 1, backoffMs: 1, now: () => clock });

  /** Runs the source until `passes` snapshot appends happened; each moves the clock a minute on. */
  async function run(passes: number): Promise<void> {
    const service = await openService({ dataDir: data.dir });
    let seen = 0;
    let stopping: Promise<void> | undefined;
    const feed = startSolanaSource(service, options());
    service.onAppend(() => {
      seen++;
      clock += 60_000;
      const s = clock / 1000;
      accounts.write(FEED_SOL, 176, le(s - 10, 8)); // the keeper keeps the feed fresh
      accounts.write(PUSH_USDC, 93, le(s - 10, 8)); // and Pyth its push feed
      if (accounts.accounts.get(PYTH_SOL)) accounts.write(AG_SOL, 177, le(s - 5, 8));
      if (seen >= passes && !stopping) stopping = feed.stop();
    });
    const t0 = Date.now();
    while (!stopping) {
      if (Date.now() - t0 > 30_000) throw new Error('timed out');
      await sleep(10);
    }
    await stopping;
    await service.close();
  }

  it('writes hand-checked market and position snapshots each minute, across a stop and restart', async () => {
    await run(3);
    // second run: beta's Doves feed goes stale and its Pyth account away → the latest fill's price
    accounts.write(AG_SOL, 177, le(C0S - 10_000, 8));
    accounts.accounts.delete(PYTH_SOL);
    await run(3);

    const service = await openService({ dataDir: data.dir });
    try {
      const dir = join(data.dir, 'journal');
      const markets = await service.db.querySql(
        `SELECT epoch_ms(time) AS t, epoch_ms(index_price_time) AS index_ms, * EXCLUDE (time, index_price_time) FROM read_parquet('${dir}/market_snapshots/**/*.parquet', hive_partitioning = true) ORDER BY protocol, t`,
      );
      const alpha = markets.filter((r) => r.protocol === 'alpha');
      const beta = markets.filter((r) => r.protocol === 'beta');
      const minutes = [0, 1, 2, 3, 4, 5].map((i) => C0 + i * 60_000);
      expect(alpha.map((r) => Number(r.t))).toEqual(minutes); // one per minute: none lost, none doubled (and none of the broken market)
      expect(beta.map((r) => Number(r.t))).toEqual(minutes);
      alpha.forEach((r, i) => {
        const dt = 100 + 60 * i; // seconds since the market's borrowing / funding clocks
        expect(r).toMatchObject({ market: 'SOL-PERP', market_variant: 'SOL/USD[WSOL-USDC]', index_price: 100, oi_long_usd: 300_000, oi_short_usd: 100_000 });
        // the PriceFeed's own report time (the keeper wrote it 10 s before the pass), not the snapshot's
        expect([Number(r.index_ms), r.index_price_source]).toEqual([minutes[i]! - 10_000, 'oracle']);
        expect(r.borrowing_rate_long).toBeCloseTo(3.6e-5, 15); // 1e12 /s × 3600 / 1e20
        expect(r.borrowing_rate_short).toBeCloseTo(3.6e-6, 15); // 1e11 /s
        expect(r.funding_rate_raw).toBeCloseTo(3.6e-5, 15);
        expect(r.funding_rate_long).toBeCloseTo(-3.6e-5 - 3.6e-5, 15);
        expect(r.funding_rate_short).toBeCloseTo(3 * 3.6e-5 - 3.6e-6, 15);
        expect(r.cum_borrowing_long).toBeCloseTo(0.05 + 1e-8 * dt, 15);
        expect(r.cum_borrowing_short).toBeCloseTo(1e-9 * dt, 15);
        // integrated funding: 3.6e-5 an hour paid by longs, 1.08e-4 earned by shorts, a minute apart (the restart included)
        expect(r.cum_funding_paid_long).toBeCloseTo((3.6e-5 / 60) * i, 15);
        expect(r.cum_funding_earned_short).toBeCloseTo((1.08e-4 / 60) * i, 15);
      });
      beta.forEach((r, i) => {
        const hourly = 25_696 / 1e9;
        expect(r).toMatchObject({ market: 'SOL-PERP', market_variant: null, oi_long_usd: 20_000, oi_short_usd: 0, borrowing_rate_short: 0, funding_rate_raw: 0 });
        expect(r.index_price).toBe(i < 3 ? 100 : 150); // Doves AgPriceFeed, then the latest fill's price
        // the AgPriceFeed's own timestamp (5 s before the pass), then the fill's time, marked as a fill's price
        expect([Number(r.index_ms), r.index_price_source]).toEqual(i < 3 ? [minutes[i]! - 5_000, 'oracle'] : [T0, 'fill']);
        expect(r.borrowing_rate_long).toBeCloseTo(hourly, 15);
        expect(r.funding_rate_long).toBeCloseTo(-hourly, 15);
        expect(r.cum_borrowing_long).toBeCloseTo((123_456_789_012 + Math.floor((25_696 * 60 * i) / 3600)) / 1e9, 12);
      });

      const polls = await service.db.querySql(
        `SELECT epoch_ms(time) AS t, * EXCLUDE (time) FROM read_parquet('${dir}/position_snapshots/**/*.parquet', hive_partitioning = true) WHERE source = 'poll' ORDER BY protocol, t`,
      );
      const p1 = polls.filter((r) => r.position_key === P1);
      const p2 = polls.filter((r) => r.position_key === P2);
      expect(p1.map((r) => Number(r.t))).toEqual(minutes);
      expect(p2.map((r) => Number(r.t))).toEqual(minutes);
      expect(polls.filter((r) => r.position_key === P3)).toEqual([]);
      p1.forEach((r, i) => {
        const dt = 100 + 60 * i;
        const borrowing = 30_000 * (0.01 + 1e-8 * dt);
        const funding = 300 + 30_000 * 1e-8 * dt;
        expect(Number(r.size_usd)).toBe(30_000);
        expect(Number(r.collateral_usd)).toBe(5_000);
        expect(Number(r.unsettled_borrowing_usd)).toBeCloseTo(borrowing, 6);
        expect(Number(r.unsettled_funding_usd)).toBeCloseTo(funding, 6);
        expect(Number(r.claimable_funding_usd)).toBe(33);
        expect(r.mark_price).toBe(100);
        expect(r.liquidation_price).toBeCloseTo((300 + 30_000 + 15 + borrowing + funding) / 350, 6);
      });
      p2.forEach((r, i) => {
        const borrow = Math.floor(((1_000_000 + Math.floor((25_696 * 60 * i) / 3600)) * 20_000_000_000) / 1e9) / 1e6;
        expect(Number(r.unsettled_borrowing_usd)).toBeCloseTo(borrow, 6);
        expect([Number(r.size_usd), Number(r.collateral_usd), Number(r.unsettled_funding_usd), Number(r.claimable_funding_usd)]).toEqual([20_000, 2_000, 0, 0]);
        expect(r.mark_price).toBe(i < 3 ? 100 : 150);
        const maxLoss = 40 + 16 + borrow;
        expect(r.liquidation_price).toBeCloseTo(150 - ((2_000 - maxLoss) * 150) / 20_000, 5);
      });
      console.log(`solana market state e2e: RPC calls ${JSON.stringify(rpc.calls)}, from the account book ${JSON.stringify(accounts.calls)}`);
    } finally {
      await service.close();
    }
  }, 60_000);
});
