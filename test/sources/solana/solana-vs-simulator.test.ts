/**
 * The solana source's market-state computations against the simulator's own for a simulated day:
 * the simulator's end-of-day state (open interest, pool value, cumulative factors, open positions
 * of SOL/USD[WSOL-USDC] and beta's SOL-PERP) is laid out as the accounts the programs would hold,
 * with a config that states the simulator's constants in the programs' units, and the source's
 * rates, unsettled fees and liquidation prices must equal the simulator's within the tolerances
 * stated below (each one says why it is not exact).
 */
import { describe, expect, it } from 'vitest';
import { decodeAlphaMarket } from '../../../server/sources/solana/accounts/alpha-market.ts';
import { decodeAlphaPosition } from '../../../server/sources/solana/accounts/alpha-position.ts';
import { decodeBetaCustody } from '../../../server/sources/solana/accounts/beta-custody.ts';
import { decodeBetaPosition } from '../../../server/sources/solana/accounts/beta-position.ts';
import { alphaPositionState } from '../../../server/sources/solana/state/alpha-position-state.ts';
import { betaPositionState } from '../../../server/sources/solana/state/beta-position-state.ts';
import { alphaMarketRow, betaMarketRow } from '../../../server/sources/solana/state/market-rows.ts';
import { alphaUpdateRates, borrowYearly } from '../../../server/sources/simulate/alpha-mechanics.ts';
import { custodyHourly } from '../../../server/sources/simulate/beta-mechanics.ts';
import { ALPHA, BETA, VARIANTS } from '../../../server/sources/simulate/markets.ts';
import { liquidationPrice, pendingBorrow, pendingEarned, pendingFunding } from '../../../server/sources/simulate/mechanics.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import type { SimulatorState } from '../../../server/sources/simulate/state.ts';
import type { Position, VariantRuntime } from '../../../server/sources/simulate/types.ts';
import { fromHex, key, le } from '../../helpers/solana-bytes.ts';
import { laid } from '../../helpers/solana-mock-accounts.ts';
import type { AlphaPrices } from '../../../server/sources/solana/alpha-events.ts';

const ALPHA_ID = 'Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo';
const BETA_ID = 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu';
const E20 = 10n ** 20n;
const u128 = (v: bigint) => le(v, 16);
const big = (x: number) => BigInt(Math.round(x));
/** a per-hour fraction as a per-second factor × 1e20 */
const perSecond = (hourly: number) => big((hourly / 3600) * 1e20);
const START = Date.UTC(2026, 5, 1);
const WSOL = key(3);
const USDC = key(4);

describe('market state from accounts equals the simulator’s own after a simulated day', () => {
  const sim = new Simulator({ seed: 7, start: START, snapshotsFrom: Date.UTC(2100, 0, 1) });
  sim.advance(START + 86_400_000);
  const st = sim.saveState() as SimulatorState;
  const nowSec = Math.floor(sim.time / 1000);
  const sol = Math.exp(st.prices.logP[0]!); // SOL is asset 0
  const solUnit = big((sol * 1e20) / 1e9); // WSOL: 9 decimals
  const prices: AlphaPrices = { index: { min: solUnit, max: solUnit }, long: { min: solUnit, max: solUnit }, short: { min: 10n ** 14n, max: 10n ** 14n } };

  it('alpha SOL/USD[WSOL-USDC]: rates, unsettled fees and liquidation prices', () => {
    const idx = VARIANTS.findIndex((v) => v.variant === 'SOL/USD[WSOL-USDC]');
    const rt: VariantRuntime = { ...st.pools.variants[idx]! };
    alphaUpdateRates(rt); // the simulator's rates for the state as it stands
    const open = st.positions.filter((p) => p.v === idx);
    expect(open.length).toBeGreaterThan(5);
    const tokensOf = (p: Position) => big((p.size / 1e6 / p.entry) * 1e9);
    const longTokens = open.filter((p) => p.long).reduce((n, p) => n + tokensOf(p), 0n);
    // funding amounts per size: per $ of size in collateral units × 1e10 × 1e20 / 1e20 (accounts.md §1f)
    const fundingWsol = (cum: number) => big((cum * 1e19) / sol);
    const fundingUsdc = (cum: number) => big(cum * 1e16);
    const m = decodeAlphaMarket({
      pubkey: 'M',
      owner: ALPHA_ID,
      data: laid(9176, [
        [0, fromHex('dbbed53700e3c69a')],
        [24, new TextEncoder().encode('SOL/USD[WSOL-USDC]')],
        [88, key(1).bytes],
        [120, WSOL.bytes],
        [152, WSOL.bytes],
        [184, USDC.bytes],
        [248, u128(0b11n)], // skip the smaller side; usage from reserves only (the simulator's model)
        [376, u128(big(ALPHA.minCollateralUsd * 1e20))],
        [552, u128(big(ALPHA.orderFeeImprove * 1e20))],
        [568, u128(big(ALPHA.orderFeeWorsen * 1e20))],
        [728, u128(big(ALPHA.borrowOptimalUsage * 1e20))],
        [744, u128(big(ALPHA.borrowOptimalUsage * 1e20))],
        [760, u128(perSecond(ALPHA.borrowBaseYearly / 8760))],
        [776, u128(perSecond(ALPHA.borrowBaseYearly / 8760))],
        [792, u128(perSecond(ALPHA.borrowAboveOptimalYearly / 8760))],
        [808, u128(perSecond(ALPHA.borrowAboveOptimalYearly / 8760))],
        [824, u128(E20)],
        [840, u128(perSecond(ALPHA.fundingFactorHourly))],
        [856, u128(perSecond(ALPHA.fundingCapHourly))],
        [968, u128(E20)],
        [1256, u128(big(ALPHA.minCollateralFactorForLiquidation * 1e20))],
        [1992, u128(big((rt.pool / sol) * 1e9))],
        [2008, u128(big(rt.pool * 1e6))],
        [2184, u128(BigInt(rt.oiLong) * 10n ** 14n)],
        [2264, u128(BigInt(rt.oiShort) * 10n ** 14n)],
        [2312, u128(longTokens)],
        [2504, u128(big(rt.cumBL * 1e20))],
        [2520, u128(big(rt.cumBS * 1e20))],
        [2568, u128(fundingWsol(rt.cumFPL))],
        [2584, u128(fundingUsdc(rt.cumFPL))],
        [2632, u128(fundingWsol(rt.cumFPS))],
        [2648, u128(fundingUsdc(rt.cumFPS))],
        [2712, u128(fundingUsdc(rt.cumFEL))],
        [2776, u128(fundingUsdc(rt.cumFES))],
        [4032, le(nowSec, 8)],
        [4040, le(nowSec, 8)],
      ]),
    });
    const r = alphaMarketRow(m, prices, { usd: sol, source: 'oracle', publishTime: nowSec }, sim.time, nowSec)!;
    // funding: the same formula on the same USD open interest: exact but for the 1e20 fixed point
    expect(r.row.funding_rate_raw).toBeCloseTo(rt.raw, 12);
    expect(r.rates.fundingLong).toBeCloseTo(rt.rFL, 12);
    expect(r.rates.fundingShort).toBeCloseTo(rt.rFS, 12);
    expect(r.row.oi_long_usd).toBe(rt.oiLong / 1e6);
    // borrowing: the program reserves longs' OI in tokens at the current price where the simulator
    // takes their USD size at entry (shorts: their USD OI in both). Against the simulator's own kink
    // with the longs' OI revalued that way it is exact but for fixed point; against its rate as it
    // stands, within 1 % here (the SOL price moved over the day the positions were opened in).
    const near = (a: number, b: number, rel: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(rel * Math.max(Math.abs(b), 1e-12));
    near(r.rates.borrowingShort, rt.rBS, 1e-9);
    const revalued = (Number(longTokens) / 1e9) * sol; // longs' reserve: their OI in tokens at today's price
    near(r.rates.borrowingLong, rt.oiLong > rt.oiShort ? borrowYearly(revalued / rt.pool) / 8760 : 0, 1e-9);
    near(r.rates.borrowingLong, rt.rBL, 0.01);

    for (const p of open) {
      const collToken = p.coll === 'WSOL';
      const fund = collToken ? fundingWsol : fundingUsdc;
      const acct = decodeAlphaPosition({
        pubkey: 'P',
        owner: ALPHA_ID,
        data: laid(680, [
          [0, fromHex('aabc8fe47a40f7d0')],
          [42, Uint8Array.of(p.long ? 1 : 2)],
          [88, key(1).bytes],
          [120, (collToken ? WSOL : USDC).bytes],
          [184, u128(tokensOf(p))],
          [200, u128(collToken ? big(p.amount * 1e9) : big(p.amount * 1e6))],
          [216, u128(BigInt(p.size) * 10n ** 14n)],
          [232, u128(big(p.cumB * 1e20))],
          [248, u128(fund(p.cumFP))],
          [280, u128(fundingUsdc(p.cumFE))],
        ]),
      });
      const s = alphaPositionState(acct, m, prices, r.rates, nowSec, 9);
      // unsettled amounts: the same cumulative factors; within a micro-dollar plus 1e-9 relative (fixed point)
      const usd = (micros: bigint) => Number(micros) / 1e6;
      expect(Math.abs(usd(s.borrowingMicros) - pendingBorrow(rt, p))).toBeLessThanOrEqual(2e-6 + 1e-9 * pendingBorrow(rt, p));
      expect(Math.abs(usd(s.fundingMicros) - pendingFunding(rt, p))).toBeLessThanOrEqual(2e-6 + 1e-9 * pendingFunding(rt, p));
      expect(Math.abs(usd(s.claimableMicros) - pendingEarned(rt, p))).toBeLessThanOrEqual(2e-6 + 1e-9 * pendingEarned(rt, p));
      // liquidation price: same condition; entry from size / tokens (tokens rounded to 1e-9 SOL) and fees rounded to micro-dollars
      const theirs = liquidationPrice(rt, p);
      if (theirs === null) expect(s.liquidationPrice === null || s.liquidationPrice > 0).toBe(true);
      else near(s.liquidationPrice!, theirs, 1e-6);
    }
  });

  it('beta SOL-PERP: borrow rates, borrow fees and liquidation prices', () => {
    const idx = VARIANTS.findIndex((v) => v.protocol === 'beta' && v.market === 'SOL-PERP');
    const c = st.pools.custodies.SOL;
    const rt = st.pools.variants[idx]!;
    const longOi = st.pools.variants.filter((_, i) => VARIANTS[i]!.protocol === 'beta' && VARIANTS[i]!.asset === 'SOL').reduce((n, v) => n + v.oiLong / 1e6, 0);
    const model = BETA.custodies.SOL;
    const bps = (x: number) => le(big(x * 1e4), 8);
    const custody = decodeBetaCustody({
      pubkey: 'C',
      owner: BETA_ID,
      data: laid(1060, [
        [0, fromHex('01b830515d833f91')],
        [151, le(big(BETA.impactFeeScalarUsd * 1e6), 8)],
        [175, le(big(BETA.maxLeverage * 1e4), 8)],
        [222, le(big(c.owned * 1e9), 8)],
        [230, le(big((longOi / sol) * 1e9), 8)],
        [262, u128(big(c.cum * 1e9))],
        [278, le(nowSec, 8)],
        [304, bps(BETA.baseFee)],
        [352, bps(model.minYearly)],
        [360, bps(model.maxYearly)],
        [368, bps(model.targetYearly)],
        [376, le(big(model.targetUtilization * 1e9), 8)],
      ]),
    });
    const row = betaMarketRow('SOL', custody, custody, { usd: sol, source: 'oracle', publishTime: nowSec }, { longMicros: 0n, shortMicros: 0n }, sim.time, nowSec);
    // the simulator's rate for the same utilisation; the program's is an integer of 1e-9 per hour
    const theirs = custodyHourly(model, longOi / (c.owned * sol));
    expect(Math.abs(row.borrowing_rate_long - theirs)).toBeLessThanOrEqual(2e-9 + 1e-6 * theirs);

    const longs = st.positions.filter((p) => p.v === idx && p.long);
    expect(longs.length).toBeGreaterThan(3);
    for (const p of longs) {
      const acct = decodeBetaPosition({
        pubkey: 'B',
        owner: BETA_ID,
        data: laid(210, [
          [0, fromHex('aabc8fe47a40f7d0')],
          [152, Uint8Array.of(1)],
          [153, le(big(p.entry * 1e6), 8)],
          [161, le(BigInt(p.size), 8)],
          [169, le(big(p.amount * 1e6), 8)],
          [185, u128(big(p.cumB * 1e9))],
        ]),
      });
      const s = betaPositionState(acct, custody, custody, nowSec);
      // the borrow index is an integer of 1e-9: a fee within size × 2e-9 + a micro-dollar
      expect(Math.abs(Number(s.borrowingMicros) / 1e6 - pendingBorrow(rt, p))).toBeLessThanOrEqual((p.size / 1e6) * 2e-9 + 2e-6);
      // liquidation: Jupiter's impact fee is charged in whole bps (rounded up) where the simulator's is
      // size² / scalar: up to 1 bp of size apart, i.e. 1e-4 of the entry price, plus the 6-decimal entry
      const theirs = liquidationPrice(rt, p);
      if (theirs !== null) expect(Math.abs(s.liquidationPrice! - theirs)).toBeLessThanOrEqual(1e-4 * p.entry + 2e-6);
    }
  });
});
