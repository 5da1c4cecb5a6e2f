/**
 * Every protocol constant of the simulator, in one place (see shared/design/protocols.md).
 *
 * Values marked (inferred) were not read from the programs' source: a correction is one edit here.
 * Simulator-only knobs (liquidity-provider behaviour, price-path shape) are also here, marked
 * (sim), so that nothing numeric hides in the engine.
 */
import type { Protocol } from '../../journal/rows.ts';

export const MINUTES_PER_YEAR = 525_600;
export const HOURS_PER_YEAR = 8_760;

/** alpha (GMX-Solana) mainnet launch; the default simulation start */
export const ALPHA_LAUNCH_MS = Date.UTC(2025, 2, 12);
/** Solana slots: slot = floor((time − genesis) / 400 ms). The genesis is fixed so that the slot at
 *  alpha's launch is about the real one (~326M); real slots are slower, this is only a clock. */
export const SLOT_MS = 400;
export const SLOT_GENESIS_MS = ALPHA_LAUNCH_MS - 326_000_000 * SLOT_MS;

// ---------------------------------------------------------------------------------------------
// Index assets and their price paths
// ---------------------------------------------------------------------------------------------

export type AssetId = 'SOL' | 'BTC' | 'ETH' | 'XAU' | 'NVDA' | 'EUR';

export interface AssetDef {
  id: AssetId;
  /** reference price, March 2025 (protocols.md); the path mean-reverts (weakly) to it */
  price0: number;
  /** annualised volatility of the diffusion part (over trading time) */
  annualVol: number;
  /** crypto assets share a common factor and common crash/pump jumps */
  crypto: boolean;
  /** sensitivity to the common crypto jump */
  cryptoBeta: number;
  /** no oracle updates from Friday 21:00 to Sunday 22:00 UTC (FX, gold, equities) */
  weekendClosed: boolean;
  /** idiosyncratic jumps per year and their median absolute size (log return) */
  jumpsPerYear: number;
  jumpMedian: number;
}

export const ASSETS: readonly AssetDef[] = [
  { id: 'SOL', price0: 130, annualVol: 0.8, crypto: true, cryptoBeta: 1.4, weekendClosed: false, jumpsPerYear: 8, jumpMedian: 0.05 },
  { id: 'BTC', price0: 82_000, annualVol: 0.5, crypto: true, cryptoBeta: 1.0, weekendClosed: false, jumpsPerYear: 4, jumpMedian: 0.03 },
  { id: 'ETH', price0: 2_000, annualVol: 0.65, crypto: true, cryptoBeta: 1.2, weekendClosed: false, jumpsPerYear: 6, jumpMedian: 0.04 },
  { id: 'XAU', price0: 2_900, annualVol: 0.15, crypto: false, cryptoBeta: 0, weekendClosed: true, jumpsPerYear: 3, jumpMedian: 0.012 },
  { id: 'NVDA', price0: 110, annualVol: 0.5, crypto: false, cryptoBeta: 0, weekendClosed: true, jumpsPerYear: 6, jumpMedian: 0.05 },
  { id: 'EUR', price0: 1.08, annualVol: 0.07, crypto: false, cryptoBeta: 0, weekendClosed: true, jumpsPerYear: 2, jumpMedian: 0.006 },
];

/** (sim) shape of the price paths */
export const PRICE_PATH = {
  /** correlation of crypto diffusion moves with the common crypto factor */
  cryptoCorrelation: 0.6,
  /** common crypto jumps (a market-wide crash or squeeze) per year, median size (log) */
  cryptoJumpsPerYear: 10,
  cryptoJumpMedian: 0.045,
  /** lognormal dispersion of jump sizes */
  jumpSizeSigma: 0.5,
  /** share of jumps that go down */
  jumpDownShare: 0.6,
  /** a jump unfolds over 1..jumpMaxMinutes minutes (so a cascade is visible minute by minute) */
  jumpMaxMinutes: 15,
  /** log-price mean reversion to price0, per year: keeps 20 months of path plausible */
  meanReversionPerYear: 2,
  /** stochastic volatility: stationary sd of log vol multiplier, mean-reversion time (minutes) */
  volOfVol: 0.35,
  volReversionMinutes: 3 * 1_440,
  /** log vol multiplier bump after a jump (turbulence) */
  volBumpAfterJump: 0.4,
  /** EWMA weight of the squared minute return behind the "excitement" activity signal */
  excitementEwma: 0.02,
};

/** the wrapped token that serves as the index token in alpha pool names */
export const INDEX_TOKEN: Record<AssetId, string> = {
  SOL: 'WSOL',
  BTC: 'WBTC',
  ETH: 'WETH',
  XAU: 'XAU',
  NVDA: 'NVDA',
  EUR: 'EUR',
};

// ---------------------------------------------------------------------------------------------
// alpha: GMX-Solana (GMX v2 model)
// ---------------------------------------------------------------------------------------------

export const ALPHA = {
  /** order fee on |size delta|: improves the long/short balance / worsens it */
  orderFeeImprove: 0.0005,
  orderFeeWorsen: 0.0007,
  /** borrowing (kink model on pool usage), yearly rates; only the larger side pays */
  borrowOptimalUsage: 0.75,
  borrowBaseYearly: 0.6,
  borrowAboveOptimalYearly: 1.5,
  /** funding factor per hour: f = factor × |L − S|^exp / (L + S), capped. Non-adaptive mode. (inferred values) */
  fundingFactorHourly: 0.00006,
  fundingExponent: 1,
  fundingCapHourly: 0.00005,
  /** price impact g(x) = kappa / poolUsd × x² on the USD imbalance x; capped on the execution price (inferred kappa) */
  priceImpactKappa: 0.002,
  priceImpactCap: 0.005,
  /** liquidation: collateral + PnL − pending fees < max(size × factor, minUsd) */
  minCollateralFactorForLiquidation: 0.005,
  minCollateralUsd: 1,
  /** liquidation fee on size, taken from collateral */
  liquidationFeeFactor: 0.002,
  /** max leverage at open (min collateral factor 1 %) (inferred) */
  maxLeverage: 100,
};

export interface AlphaVariantDef {
  name: string;
  asset: AssetId;
  longToken: string;
  shortToken: string;
  /** (sim) share of alpha activity */
  weight: number;
  /** (sim) initial pool value in USD at scale 1 (liquidity providers then follow demand) */
  pool0: number;
}

export const ALPHA_VARIANTS: readonly AlphaVariantDef[] = [
  { name: 'SOL/USD[WSOL-USDC]', asset: 'SOL', longToken: 'WSOL', shortToken: 'USDC', weight: 30, pool0: 20e6 },
  { name: 'SOL/USD[USDC-USDC]', asset: 'SOL', longToken: 'USDC', shortToken: 'USDC', weight: 10, pool0: 6e6 },
  { name: 'SOL/USD[WSOL-WSOL]', asset: 'SOL', longToken: 'WSOL', shortToken: 'WSOL', weight: 6, pool0: 4e6 },
  { name: 'BTC/USD[USDC-USDC]', asset: 'BTC', longToken: 'USDC', shortToken: 'USDC', weight: 20, pool0: 15e6 },
  { name: 'ETH/USD[USDC-USDC]', asset: 'ETH', longToken: 'USDC', shortToken: 'USDC', weight: 15, pool0: 10e6 },
  { name: 'XAU/USD[USDC-USDC]', asset: 'XAU', longToken: 'USDC', shortToken: 'USDC', weight: 8, pool0: 4e6 },
  { name: 'NVDA/USD[USDC-USDC]', asset: 'NVDA', longToken: 'USDC', shortToken: 'USDC', weight: 6, pool0: 3e6 },
  { name: 'EUR/USD[USDC-USDC]', asset: 'EUR', longToken: 'USDC', shortToken: 'USDC', weight: 5, pool0: 2e6 },
];

// ---------------------------------------------------------------------------------------------
// beta: Jupiter Perpetuals
// ---------------------------------------------------------------------------------------------

export interface JumpRateModel {
  /** yearly borrow rate at 0 utilisation, at the target utilisation, at 100 % */
  minYearly: number;
  targetYearly: number;
  maxYearly: number;
  targetUtilization: number;
}

export const BETA = {
  /** open / close fee on |size delta| (every size change, liquidations included) */
  baseFee: 0.0006,
  /** price-impact fee = |size delta|² / scalar (USD) (inferred scalar) */
  impactFeeScalarUsd: 1.25e10,
  /** max leverage at open (inferred) */
  maxInitialLeverage: 100,
  /** liquidation when loss + close fee + borrow fee > collateral − size / maxLeverage (inferred 500x) */
  maxLeverage: 500,
  /** liquidation fee on size (inferred: the event carries one; the rate is a guess) */
  liquidationFeeFactor: 0.002,
  /** the stablecoin custody that short positions use as collateral (USDT shorts are not simulated) */
  shortCollateral: 'USDC',
  /** jump-rate borrow models per custody (inferred values) */
  custodies: {
    SOL: { minYearly: 0.05, targetYearly: 0.4, maxYearly: 1.5, targetUtilization: 0.8 },
    ETH: { minYearly: 0.05, targetYearly: 0.35, maxYearly: 1.3, targetUtilization: 0.8 },
    BTC: { minYearly: 0.04, targetYearly: 0.3, maxYearly: 1.2, targetUtilization: 0.8 },
    USDC: { minYearly: 0.06, targetYearly: 0.35, maxYearly: 1.2, targetUtilization: 0.8 },
  } as Record<'SOL' | 'ETH' | 'BTC' | 'USDC', JumpRateModel>,
};

export interface BetaMarketDef {
  market: string;
  asset: 'SOL' | 'ETH' | 'BTC';
  /** (sim) share of beta activity */
  weight: number;
  /** (sim) initial custody value in USD at scale 1 */
  custody0: number;
}

export const BETA_MARKETS: readonly BetaMarketDef[] = [
  { market: 'SOL-PERP', asset: 'SOL', weight: 50, custody0: 30e6 },
  { market: 'ETH-PERP', asset: 'ETH', weight: 20, custody0: 12e6 },
  { market: 'BTC-PERP', asset: 'BTC', weight: 30, custody0: 20e6 },
];
/** (sim) initial USDC custody value at scale 1 */
export const BETA_USDC_CUSTODY0 = 25e6;

/** (sim) liquidity providers: pool value drifts towards (larger side OI / target usage), hourly */
export const LP = {
  targetUsage: 0.45,
  adjustPerHour: 1 / 168,
  /** the pool never shrinks below this share of its initial value */
  floorShare: 0.25,
};

// ---------------------------------------------------------------------------------------------
// The flat variant list the engine iterates (alpha first, then beta)
// ---------------------------------------------------------------------------------------------

export interface CollateralOption {
  token: string;
  /** collateral held in the index token: its USD value moves with the price */
  indexToken: boolean;
}

export interface VariantDef {
  idx: number;
  protocol: Protocol;
  market: string;
  variant: string | null;
  asset: AssetId;
  assetIdx: number;
  weight: number;
  /** collateral tokens a long / a short may use */
  collLong: CollateralOption[];
  collShort: CollateralOption[];
  /** initial pool (alpha) or custody (beta) value, scale 1 */
  liquidity0: number;
}

function alphaCollateral(def: AlphaVariantDef): CollateralOption[] {
  const tokens = [...new Set([def.longToken, def.shortToken])];
  return tokens.map((token) => ({ token, indexToken: token === INDEX_TOKEN[def.asset] }));
}

function assetIdx(id: AssetId): number {
  return ASSETS.findIndex((a) => a.id === id);
}

export const VARIANTS: readonly VariantDef[] = [
  ...ALPHA_VARIANTS.map(
    (d, i): VariantDef => ({
      idx: i,
      protocol: 'alpha',
      market: `${d.asset}-PERP`,
      variant: d.name,
      asset: d.asset,
      assetIdx: assetIdx(d.asset),
      weight: d.weight,
      collLong: alphaCollateral(d),
      collShort: alphaCollateral(d),
      liquidity0: d.pool0,
    }),
  ),
  ...BETA_MARKETS.map(
    (d, i): VariantDef => ({
      idx: ALPHA_VARIANTS.length + i,
      protocol: 'beta',
      market: d.market,
      variant: null,
      asset: d.asset,
      assetIdx: assetIdx(d.asset),
      weight: d.weight,
      // Jupiter longs post the index token, but the position records collateral in USD at deposit,
      // so its value does not move with the price (indexToken false).
      collLong: [{ token: d.asset, indexToken: false }],
      collShort: [{ token: BETA.shortCollateral, indexToken: false }],
      liquidity0: d.custody0,
    }),
  ),
];

export const VARIANTS_OF: Record<Protocol, readonly VariantDef[]> = {
  alpha: VARIANTS.filter((v) => v.protocol === 'alpha'),
  beta: VARIANTS.filter((v) => v.protocol === 'beta'),
};
