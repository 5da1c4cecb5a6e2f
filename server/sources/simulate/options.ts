/** The simulator's options (server/sources/simulate/simulator.ts) and their defaults. */
import { ALPHA_LAUNCH_MS } from './markets.ts';

export interface SimulatorOptions {
  /** default 42 */
  seed: number;
  /** epoch ms, default Date.UTC(2025,2,12) (alpha launch) */
  start: number;
  /** epoch ms, default Date.UTC(2026,4,1): market snapshots and poll snapshots only from here */
  snapshotsFrom: number;
  /** default 1: multiplies regular traders and activity (10 → ~10x fills); above 1 adds tourists (tourists.ts) */
  scale: number;
  /**
   * From this minute on (null = never) the market is "live": arrivals × `liveBoost` and planned
   * holding times ÷ `liveBoost`, so a running demo sees a fill every second or two while open
   * interest stays near its equilibrium (arrival rate × holding time). Set by {@link Simulator.goLive}.
   */
  liveFrom: number | null;
  /** default 60: a fill every second or two even at the quiet hours of the daily cycle */
  liveBoost: number;
}

export const DEFAULT_OPTIONS: SimulatorOptions = {
  seed: 42,
  start: ALPHA_LAUNCH_MS,
  snapshotsFrom: Date.UTC(2026, 4, 1),
  scale: 1,
  liveFrom: null,
  liveBoost: 60,
};
