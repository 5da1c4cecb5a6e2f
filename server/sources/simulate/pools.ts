/**
 * Per-variant market state over time: open interest, the rates in force, the cumulative
 * borrowing / funding factors (advanced every simulated minute) and pool liquidity.
 *
 * alpha: one pool per variant; beta: one JLP pool whose custodies (SOL, ETH, BTC for longs,
 * USDC for all shorts) carry the borrow indices; a beta market mirrors its two custodies.
 */
import { alphaUpdateRates } from './alpha-mechanics.ts';
import { custodyHourly } from './beta-mechanics.ts';
import { ASSETS, BETA, BETA_USDC_CUSTODY0, LP, VARIANTS } from './markets.ts';
import type { CustodyRuntime, VariantRuntime } from './types.ts';
import { NO_LONG_BOUND, NO_SHORT_BOUND } from './types.ts';

export type CustodyId = 'SOL' | 'ETH' | 'BTC' | 'USDC';
const TOKEN_CUSTODIES = ['SOL', 'ETH', 'BTC'] as const;
const ALPHA_IDX = VARIANTS.filter((v) => v.protocol === 'alpha').map((v) => v.idx);
const BETA_IDX = VARIANTS.filter((v) => v.protocol === 'beta').map((v) => v.idx);
/** per beta variant: index of its custody in TOKEN_CUSTODIES */
const BETA_CUSTODY = BETA_IDX.map((i) => TOKEN_CUSTODIES.indexOf(VARIANTS[i]!.asset as 'SOL' | 'ETH' | 'BTC'));
const CUSTODY_ASSET = TOKEN_CUSTODIES.map((id) => ASSETS.findIndex((a) => a.id === id));

/** JSON state of the pools */
export interface PoolsState {
  variants: VariantRuntime[];
  custodies: Record<CustodyId, CustodyRuntime>;
}

function assetPrice0(id: string): number {
  return ASSETS.find((a) => a.id === id)!.price0;
}

/** Market state of every variant (and beta custody); mutated by fills, accrued every minute. */
export class Pools {
  readonly variants: VariantRuntime[];
  readonly custodies: Record<CustodyId, CustodyRuntime>;

  constructor(
    private readonly scale: number,
    state?: PoolsState,
  ) {
    if (state) {
      this.variants = state.variants;
      this.custodies = state.custodies;
      return;
    }
    this.variants = VARIANTS.map((v) => ({
      oiLong: 0,
      oiShort: 0,
      cumBL: 0,
      cumBS: 0,
      cumFPL: 0,
      cumFPS: 0,
      cumFEL: 0,
      cumFES: 0,
      rBL: 0,
      rBS: 0,
      rFL: 0,
      rFS: 0,
      raw: 0,
      pool: v.liquidity0 * scale,
      boundL: NO_LONG_BOUND,
      boundS: NO_SHORT_BOUND,
    }));
    const custody = (owned: number): CustodyRuntime => ({ owned, cum: 0, rate: 0 });
    const tokens = (id: 'SOL' | 'ETH' | 'BTC'): number => (VARIANTS.find((v) => v.protocol === 'beta' && v.asset === id)!.liquidity0 * scale) / assetPrice0(id);
    this.custodies = {
      SOL: custody(tokens('SOL')),
      ETH: custody(tokens('ETH')),
      BTC: custody(tokens('BTC')),
      USDC: custody(BETA_USDC_CUSTODY0 * scale),
    };
  }

  state(): PoolsState {
    return { variants: this.variants, custodies: this.custodies };
  }

  /** One minute of accrual at the rates in force (hourly rates / 60). */
  accrue(): void {
    for (const i of ALPHA_IDX) {
      const rt = this.variants[i]!;
      rt.cumBL += rt.rBL / 60;
      rt.cumBS += rt.rBS / 60;
      if (rt.rFL < 0) rt.cumFPL -= rt.rFL / 60;
      else rt.cumFEL += rt.rFL / 60;
      if (rt.rFS < 0) rt.cumFPS -= rt.rFS / 60;
      else rt.cumFES += rt.rFS / 60;
    }
    const c = this.custodies;
    c.SOL.cum += c.SOL.rate / 60;
    c.ETH.cum += c.ETH.rate / 60;
    c.BTC.cum += c.BTC.rate / 60;
    c.USDC.cum += c.USDC.rate / 60;
    this.mirrorCustodies();
  }

  /** beta markets carry their custodies' indices and rates (longs: index custody, shorts: USDC) */
  private mirrorCustodies(): void {
    const usdc = this.custodies.USDC;
    for (let k = 0; k < BETA_IDX.length; k++) {
      const rt = this.variants[BETA_IDX[k]!]!;
      const c = this.custodies[TOKEN_CUSTODIES[BETA_CUSTODY[k]!]!];
      rt.cumBL = c.cum;
      rt.cumBS = usdc.cum;
      rt.rBL = c.rate;
      rt.rBS = usdc.rate;
    }
  }

  /** Recomputes every rate in force from open interest, liquidity and prices. */
  updateRates(prices: Float64Array): void {
    for (const i of ALPHA_IDX) alphaUpdateRates(this.variants[i]!);
    let shortOi = 0;
    for (let j = 0; j < TOKEN_CUSTODIES.length; j++) {
      let longOi = 0;
      for (let k = 0; k < BETA_IDX.length; k++) {
        const rt = this.variants[BETA_IDX[k]!]!;
        if (BETA_CUSTODY[k] === j) longOi += rt.oiLong / 1e6;
        if (j === 0) shortOi += rt.oiShort / 1e6;
      }
      const id = TOKEN_CUSTODIES[j]!;
      const c = this.custodies[id];
      c.rate = custodyHourly(BETA.custodies[id], longOi / (c.owned * prices[CUSTODY_ASSET[j]!]!));
    }
    this.custodies.USDC.rate = custodyHourly(BETA.custodies.USDC, shortOi / this.custodies.USDC.owned);
    this.mirrorCustodies();
  }

  /**
   * (sim) Hourly liquidity-provider flow: each pool (alpha) or custody (beta) moves a little
   * towards the size at which its usage would be LP.targetUsage, never below a floor. This keeps
   * usage, and so borrow rates, in a realistic band at any `scale` and any emergent OI.
   */
  adaptLiquidity(prices: Float64Array): void {
    const k = LP.adjustPerHour;
    let shortOi = 0;
    const longOi: Record<string, number> = { SOL: 0, ETH: 0, BTC: 0 };
    for (const def of VARIANTS) {
      const rt = this.variants[def.idx]!;
      const L = rt.oiLong / 1e6;
      const S = rt.oiShort / 1e6;
      if (def.protocol === 'alpha') {
        const target = Math.max(L, S) / LP.targetUsage;
        rt.pool = Math.max(LP.floorShare * def.liquidity0 * this.scale, rt.pool + (target - rt.pool) * k);
      } else {
        longOi[def.asset] = longOi[def.asset]! + L;
        shortOi += S;
      }
    }
    for (const id of TOKEN_CUSTODIES) {
      const c = this.custodies[id];
      const p = prices[ASSETS.findIndex((a) => a.id === id)]!;
      const def = VARIANTS.find((v) => v.protocol === 'beta' && v.asset === id)!;
      const floor = (LP.floorShare * def.liquidity0 * this.scale) / assetPrice0(id);
      c.owned = Math.max(floor, c.owned + (longOi[id]! / LP.targetUsage / p - c.owned) * k);
    }
    const usdc = this.custodies.USDC;
    usdc.owned = Math.max(LP.floorShare * BETA_USDC_CUSTODY0 * this.scale, usdc.owned + (shortOi / LP.targetUsage - usdc.owned) * k);
  }
}
