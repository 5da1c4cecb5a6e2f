/**
 * A stored answer of the response cache and the rules it is judged by: the clock span over which
 * it holds, its body at a clock, and the bytes it is counted for in the budget.
 */
import type { Footprint } from './footprint.ts';
import type { Body } from './json-body.ts';
import { log } from '../lib/log.ts';

/**
 * An answer and the clock span [validFrom, validUntil] (epoch ms, inclusive) over which it holds:
 * a fixed `body`, or for a moving answer its renderer (which keeps the data's JSON; no body is
 * kept beside it).
 */
export interface Entry {
  /** a long one as bytes (keptBody) */
  body?: Body;
  render?: (t: number) => string;
  /** what the body is counted for in the byte budget (bodySize) */
  size: number;
  /** -Infinity unless the answer read the clock: then the clock it was computed at (a clock set back must not see it) */
  validFrom: number;
  validUntil: number;
  /** the part of the journal the answer is a function of: appends outside it keep the entry */
  footprint?: Footprint;
}

/** Whether the entry's answer is the one at clock `now`. */
export const holds = (e: Entry, now: number): boolean => e.validFrom <= now && now <= e.validUntil;
/** A bound that could not be computed: the answer is served but not kept. */
export const unbounded = (err: unknown): number => {
  log.warn("response cache: an answer's validity bound failed; not cached", err);
  return -Infinity;
};
/** The entry's body at clock `now` (a moving answer rendered then). */
export const bodyAt = (e: Entry, now: number): Body => (e.render ? e.render(now) : e.body!);

/** Bytes an entry is counted for (UTF-16 key, the body's size, plus a fixed overhead). */
export const sizeOf = (key: string, e: Entry): number => e.size + key.length * 2 + 64;
