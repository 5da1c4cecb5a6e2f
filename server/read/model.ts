/**
 * The one interface of a read model: an in-memory (or on-disk) form of part of the derived state
 * that answers some routes faster than their SQL. A model loads in the background once opened;
 * until it is ready its routes answer from the same SQL, so a request never waits for a load.
 * Each model decides per question whether it can answer (its tier) and falls back to SQL itself.
 */
export interface ReadModel {
  /** a short name for logs and /health (`buckets`, `accounts`, …) */
  readonly name: string;
  /** starts loading (and following appends) in the background; a failure is logged there */
  open(): void;
  /** whether the model answers from its own tier now (false while loading, rebuilding or behind) */
  ready(): boolean;
  /** resolves once the model has loaded (tests); absent for a model that answers from its first request */
  loaded?(): Promise<void>;
}
