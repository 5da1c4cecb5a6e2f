/**
 * Oracle price paths, one per index asset, shared by every variant of both protocols.
 *
 * Minute steps of a log-price process: correlated diffusion (crypto assets share a factor),
 * stochastic volatility, weak mean reversion to the March 2025 reference (so 20 months stay
 * plausible), and jumps that unfold over a few minutes (crashes and squeezes: the cause of
 * liquidation cascades). FX, gold and NVDA do not move over the weekend.
 */
import { ASSETS, MINUTES_PER_YEAR, PRICE_PATH } from './markets.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/time.ts';
import type { Rng } from './rng.ts';

/** JSON state of the price paths */
export interface PriceState {
  /** log price per asset */
  logP: number[];
  /** log volatility multiplier per asset */
  logVol: number[];
  /** jump still to unfold: total log move and minutes left, per asset */
  jumpLeft: number[];
  jumpMinutes: number[];
  /** EWMA of squared minute returns of SOL divided by its base variance */
  excitement: number;
}

const N = ASSETS.length;
/** share of the week an asset with weekend closure trades (49 h closed of 168) */
const OPEN_SHARE = 1 - 49 / 168;

/** true while the weekend closure (Fri 21:00 to Sun 22:00 UTC) holds at minute `t` */
export function weekendClosed(t: number): boolean {
  const dow = (Math.floor(t / DAY_MS) + 4) % 7; // 1970-01-01 was a Thursday (4)
  const hour = Math.floor((t % DAY_MS) / HOUR_MS);
  return (dow === 5 && hour >= 21) || dow === 6 || (dow === 0 && hour < 22);
}

/** the volatility multiplier is updated every this many minutes (it moves over days) */
const VOL_EVERY = 10;

/** The six oracle price paths and their state (see the module comment). */
export class PricePaths {
  readonly state: PriceState;
  /** current prices (exp of logP), refreshed on each step */
  readonly price: Float64Array = new Float64Array(N);
  private readonly baseSigma: Float64Array;
  /** per-minute sigma in force: base × exp(logVol − sd²), derived from the state */
  private readonly sigmaNow = new Float64Array(N);
  private readonly logRef = Float64Array.from(ASSETS, (a) => Math.log(a.price0));

  constructor(state?: PriceState) {
    this.state = state ?? {
      logP: ASSETS.map((a) => Math.log(a.price0)),
      logVol: ASSETS.map(() => 0),
      jumpLeft: ASSETS.map(() => 0),
      jumpMinutes: ASSETS.map(() => 0),
      excitement: 1,
    };
    // per-minute sigma over trading minutes only, so the annual volatility is as configured
    this.baseSigma = Float64Array.from(ASSETS, (a) => a.annualVol / Math.sqrt(MINUTES_PER_YEAR * (a.weekendClosed ? OPEN_SHARE : 1)));
    for (let i = 0; i < N; i++) this.updateSigma(i);
    for (let i = 0; i < N; i++) this.price[i] = Math.exp(this.state.logP[i]!);
  }

  // exp(logVol − sd²) has E[mult²] = 1 when logVol ~ N(0, sd²): volatility stays calibrated
  private updateSigma(i: number): void {
    this.sigmaNow[i] = this.baseSigma[i]! * Math.exp(this.state.logVol[i]! - PRICE_PATH.volOfVol * PRICE_PATH.volOfVol);
  }

  /** Base per-minute sigma of asset i. */
  sigma(i: number): number {
    return this.baseSigma[i]!;
  }

  /**
   * Advances every path by one minute, to minute `t`. The draws made depend only on `t` and the
   * state (never on how calls are split): per minute a common crypto normal and a jump test,
   * per open asset a normal and a jump test, every VOL_EVERY minutes a volatility normal per
   * asset, plus a few draws when a jump starts.
   */
  step(t: number, rng: Rng): void {
    const st = this.state;
    const pp = PRICE_PATH;
    const closed = weekendClosed(t);
    const reversion = pp.meanReversionPerYear / MINUTES_PER_YEAR;

    if ((t / MINUTE_MS) % VOL_EVERY === 0) {
      const keep = Math.pow(1 - 1 / pp.volReversionMinutes, VOL_EVERY);
      const shock = pp.volOfVol * Math.sqrt(1 - keep * keep);
      for (let i = 0; i < N; i++) {
        st.logVol[i] = st.logVol[i]! * keep + shock * rng.normal();
        this.updateSigma(i);
      }
    }

    const common = rng.normal();
    // a common crypto jump: a crash or squeeze across SOL, ETH and BTC
    let cryptoJump = 0;
    let cryptoJumpMinutes = 0;
    if (rng.float() < pp.cryptoJumpsPerYear / MINUTES_PER_YEAR) {
      cryptoJump = this.jumpSize(rng, pp.cryptoJumpMedian);
      cryptoJumpMinutes = 1 + rng.int(pp.jumpMaxMinutes);
    }
    const rho = Math.sqrt(pp.cryptoCorrelation);
    const idio = Math.sqrt(1 - pp.cryptoCorrelation);

    for (let i = 0; i < N; i++) {
      const a = ASSETS[i]!;
      if (a.weekendClosed && closed) continue; // no oracle moves, no draws
      let jump = 0;
      let jumpMinutes = 0;
      if (rng.float() < a.jumpsPerYear / MINUTES_PER_YEAR) {
        jump = this.jumpSize(rng, a.jumpMedian);
        jumpMinutes = 1 + rng.int(pp.jumpMaxMinutes);
      }
      if (a.crypto && cryptoJump !== 0) {
        jump += cryptoJump * a.cryptoBeta;
        jumpMinutes = Math.max(jumpMinutes, cryptoJumpMinutes);
      }
      if (jump !== 0) {
        st.jumpLeft[i] = st.jumpLeft[i]! + jump;
        st.jumpMinutes[i] = Math.max(st.jumpMinutes[i]!, jumpMinutes);
        st.logVol[i] = st.logVol[i]! + pp.volBumpAfterJump;
        this.updateSigma(i);
      }
      const z = rng.normal();
      const shock = a.crypto ? rho * common + idio * z : z;
      const logP = st.logP[i]!;
      let dlog = this.sigmaNow[i]! * shock - reversion * (logP - this.logRef[i]!);
      const left = st.jumpMinutes[i]!;
      if (left > 0) {
        const part = st.jumpLeft[i]! / left;
        dlog += part;
        st.jumpMinutes[i] = left - 1;
        st.jumpLeft[i] = left === 1 ? 0 : st.jumpLeft[i]! - part;
      }
      st.logP[i] = logP + dlog;
      this.price[i] = Math.exp(logP + dlog);
      if (i === 0) {
        const w = pp.excitementEwma;
        st.excitement = (1 - w) * st.excitement + (w * dlog * dlog) / (this.baseSigma[0]! * this.baseSigma[0]!);
      }
    }
  }

  /** signed log jump: lognormal magnitude around `median`, down more often than up */
  private jumpSize(rng: Rng, median: number): number {
    const size = median * Math.exp(PRICE_PATH.jumpSizeSigma * rng.normal());
    return rng.float() < PRICE_PATH.jumpDownShare ? -size : size;
  }

  /** Market activity multiplier from recent SOL volatility: ~1 when calm, up to ~2.5 in a crash. */
  activity(): number {
    const ratio = Math.sqrt(this.state.excitement);
    return Math.min(2.5, Math.max(0.7, 0.6 + 0.4 * ratio));
  }
}
