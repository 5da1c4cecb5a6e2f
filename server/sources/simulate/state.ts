/**
 * The simulator's saved state: its JSON shape, a deep copy on the way out and a shape check on the
 * way in. Everything random or evolving is here; what is a pure function of (seed, scale) — the
 * trader population, wallet addresses, position keys — is regenerated instead.
 */
import type { PoolsState } from './pools.ts';
import type { PriceState } from './prices.ts';
import type { QueueState } from './queue.ts';
import type { RngState } from './rng.ts';
import type { SimulatorOptions } from './options.ts';
import type { Position } from './types.ts';

/**
 * 2 added tourists (scale > 1). A version-1 state of scale <= 1 is the same thing with no
 * tourists and is read as such; one of a larger scale came from the older population model,
 * which this code does not reproduce, so it is refused rather than continued differently.
 * 3 added each open position's `increased` / `increaseEntry` (the served entry price). An older
 * state's positions get their size and own average entry there: exact unless the lifecycle was
 * decreased and then increased before the state was saved (the earlier increases are not in it).
 */
export const STATE_VERSION = 3;

/** Options as stored in the state: exactly the simulator's options. */
export type StoredOptions = SimulatorOptions;

/** The full JSON state of a Simulator. */
export interface SimulatorState {
  version: number;
  options: StoredOptions;
  /** next minute to simulate (epoch ms) */
  time: number;
  rng: { prices: RngState; traders: RngState };
  prices: PriceState;
  pools: PoolsState;
  /** open lifecycles, in id order */
  positions: Position[];
  queue: QueueState;
  nextPositionId: number;
  nextTx: number;
  nextFullPass: number;
  /** tourists joined so far (always 0 at scale <= 1) */
  tourists: number;
}

/** A deep copy, so the caller's object and the live simulator never share mutable parts. */
export function cloneState(state: SimulatorState): SimulatorState {
  return structuredClone(state);
}

function fail(what: string): never {
  throw new Error(`Simulator.restore: invalid state (${what})`);
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Checks the shape of an untrusted state (e.g. parsed from a checkpoint file) and copies it. */
export function parseState(input: unknown): SimulatorState {
  if (!isObj(input)) fail('not an object');
  let raw: Record<string, unknown> = input;
  if (raw.version !== STATE_VERSION && raw.version !== 1 && raw.version !== 2) fail(`version ${String(raw.version)}, expected ${STATE_VERSION}`);
  const o = raw.options;
  if (!isObj(o) || !isNum(o.seed) || !isNum(o.start) || !isNum(o.snapshotsFrom) || !isNum(o.scale)) fail('options');
  if (raw.version === 1) {
    if (o.scale > 1) fail(`version 1 at scale ${o.scale}: made by the population model before tourists; simulate into a new data directory`);
    raw = { ...raw, version: 2, tourists: 0 };
  }
  if (raw.version === 2 && Array.isArray(raw.positions)) {
    raw = { ...raw, version: STATE_VERSION, positions: raw.positions.map((p: unknown) => (isObj(p) ? { increased: p.size, increaseEntry: p.entry, ...p } : p)) };
  }
  if (!isNum(raw.tourists)) fail('tourists');
  if (!(o.liveFrom === null || isNum(o.liveFrom)) || !isNum(o.liveBoost)) fail('live options');
  if (!isNum(raw.time) || !isNum(raw.nextPositionId) || !isNum(raw.nextTx) || !isNum(raw.nextFullPass)) fail('counters');
  const rng = raw.rng;
  if (!isObj(rng) || !isObj(rng.prices) || !isObj(rng.traders)) fail('rng');
  for (const r of [rng.prices, rng.traders]) {
    if (!Array.isArray(r.s) || r.s.length !== 4 || !r.s.every(isNum)) fail('rng words');
  }
  const prices = raw.prices;
  if (!isObj(prices) || !Array.isArray(prices.logP) || !prices.logP.every(isNum)) fail('prices');
  const pools = raw.pools;
  if (!isObj(pools) || !Array.isArray(pools.variants) || !isObj(pools.custodies)) fail('pools');
  if (!Array.isArray(raw.positions)) fail('positions');
  for (const p of raw.positions) {
    if (!isObj(p) || !isNum(p.id) || typeof p.key !== 'string' || !isNum(p.size) || !isNum(p.amount) || !isNum(p.increased) || !isNum(p.increaseEntry)) fail('position');
  }
  const queue = raw.queue;
  if (!isObj(queue) || !Array.isArray(queue.keys) || !Array.isArray(queue.kinds) || !Array.isArray(queue.refs) || !isNum(queue.seq)) fail('queue');
  return structuredClone(raw as unknown as SimulatorState);
}
