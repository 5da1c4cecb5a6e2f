/**
 * Seeded pseudo-random numbers: xoshiro128** (Blackman & Vigna), seeded through splitmix32,
 * plus the few distributions the simulator draws from. The whole state (four 32-bit words and
 * the cached second Box-Muller normal) is JSON-serialisable, so a restored simulator continues
 * the exact same stream.
 */

/** splitmix32 step: a good 32-bit mixer, used for seeding and for hashing integers */
export function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

const TWO_POW_32 = 4_294_967_296;
const TWO_PI = 2 * Math.PI;

/** JSON form of an {@link Rng}'s state */
export interface RngState {
  s: [number, number, number, number];
  spare: number | null;
}

/** A seeded xoshiro128** stream with the simulator's distributions. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  /** @param seed any integer; `stream` picks an independent stream for the same seed */
  constructor(seed: number, stream = 0) {
    let x = mix32((seed | 0) ^ Math.imul(stream + 1, 0x85ebca6b));
    x = mix32(x ^ Math.floor(seed / TWO_POW_32));
    this.a = x = mix32(x);
    this.b = x = mix32(x);
    this.c = x = mix32(x);
    this.d = mix32(x);
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1; // the all-zero state is a fixed point
  }

  /** next 32-bit unsigned integer (xoshiro128**) */
  u32(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }

  /** uniform in [0, 1) */
  float(): number {
    return this.u32() / TWO_POW_32;
  }

  /** uniform in [lo, hi) */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /** integer in [0, n) */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** true with probability p */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** standard normal (Box-Muller; the second value is cached and part of the state) */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u = 1 - this.float(); // (0, 1]
    const v = this.float();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(TWO_PI * v);
    return r * Math.cos(TWO_PI * v);
  }

  /** exponential with the given mean */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.float());
  }

  /** Pareto with scale xm and tail index alpha (heavier tail for smaller alpha) */
  pareto(xm: number, alpha: number): number {
    return xm / Math.pow(1 - this.float(), 1 / alpha);
  }

  /** lognormal: exp(mu + sigma × N(0,1)) */
  lognormal(mu: number, sigma: number): number {
    return Math.exp(mu + sigma * this.normal());
  }

  /** Poisson (Knuth; meant for small means) */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k++;
      p *= this.float();
    }
    return k;
  }

  /** index drawn with probability proportional to weights[i] (weights sum > 0) */
  weighted(weights: readonly number[], total?: number): number {
    let sum = total ?? 0;
    if (total === undefined) for (const w of weights) sum += w;
    let x = this.float() * sum;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i]!;
      if (x < 0) return i;
    }
    return weights.length - 1;
  }

  getState(): RngState {
    return { s: [this.a, this.b, this.c, this.d], spare: this.spare };
  }

  setState(st: RngState): void {
    [this.a, this.b, this.c, this.d] = st.s;
    this.spare = st.spare;
  }

  static fromState(st: RngState): Rng {
    const r = new Rng(0);
    r.setState(st);
    return r;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
