/**
 * What the running source is doing, for operators (`GET /health`, `/metrics`) and for the
 * completeness header of answers served while history is still being built. Each source updates
 * the one instance its service holds; readers take a copy with `get()`.
 */
export type SourcePhase = 'idle' | 'starting' | 'backfilling' | 'following' | 'live' | 'retrying' | 'stopped';

export interface SourceState {
  /** which source feeds the journal: `simulated`, `solana`, `replay`, or `none` */
  source: 'simulated' | 'solana' | 'replay' | 'none';
  phase: SourcePhase;
  /** when the phase began (ms since the epoch) */
  sinceMs: number;
  /** share of the backfill done, 0..1, while backfilling */
  progress: number | null;
  /** seconds the backfill still needs, when it can tell */
  etaS: number | null;
  /** the time (ms) up to which the journal holds every fill of the source, while history is still
   * being built; null once the source follows the present */
  completeToMs: number | null;
  /** solana: the chain's tip slot minus the last slot indexed */
  slotLag: number | null;
  /** retrying or stopped: why, in one line */
  reason: string | null;
  /** decoded fills or events set aside by validation since the data directory began (kept on disk
   * for a later re-decode, never stored in the journal) */
  quarantined: number;
}

export class SourceStatus {
  #state: SourceState;

  constructor(source: SourceState['source'] = 'none', now: () => number = Date.now) {
    this.now = now;
    this.#state = { source, phase: 'idle', sinceMs: now(), progress: null, etaS: null, completeToMs: null, slotLag: null, reason: null, quarantined: 0 };
  }

  private readonly now: () => number;

  /** Which source feeds the journal (`X-Data-Source`, /health, describe_service, the OpenAPI description). */
  dataSource(): SourceState['source'] {
    return this.#state.source;
  }

  get(): SourceState {
    return { ...this.#state };
  }

  /** Moves to `phase` (its clock restarts only when the phase changes) and merges `details`. */
  set(phase: SourcePhase, details: Partial<Omit<SourceState, 'phase' | 'sinceMs' | 'source'>> = {}): void {
    const sinceMs = phase === this.#state.phase ? this.#state.sinceMs : this.now();
    this.#state = { ...this.#state, ...details, phase, sinceMs };
  }

  /** Names the source (set once by the composition root). */
  setSource(source: SourceState['source']): void {
    this.#state = { ...this.#state, source };
  }
}
