/**
 * What a route's handler tells the response cache about the answer it is computing, through its
 * event: how long the answer holds as the clock moves (a bound or a renderer per clock), and
 * whether the cache is computing it at all. The cache reads them back after the handler ran.
 */
import type { H3Event } from 'h3';

/** Where a handler's declared validity is kept on its event (see {@link declareValidUntil}). */
const VALID_UNTIL = 'perpsCacheValidUntil';

/**
 * Declares that the answer being computed for `event` stays exactly what it is, as the service
 * clock moves on, until `until` (epoch ms, inclusive; null = until the next append). For routes
 * that read the clock and can bound its effect from the data (e.g. the next time a fill enters
 * or leaves a trailing window); the smallest of several declarations holds. The route owns the
 * bound's correctness: test/cache/cache.test.ts checks every declaring route against uncached answers
 * as the clock passes each bound.
 */
export function declareValidUntil(event: H3Event, until: number | null): void {
  const bound = until ?? Infinity;
  const previous = event.context[VALID_UNTIL] as number | undefined;
  event.context[VALID_UNTIL] = previous === undefined ? bound : Math.min(previous, bound);
}

/**
 * An answer whose body moves with the clock while its data holds (a history window ending now):
 * `render(t)` is the body at clock t, for t up to what `validUntil()` resolves to (epoch ms,
 * inclusive; asked only when the answer is to be stored, since it may query).
 */
export interface MovingAnswer {
  validUntil(): Promise<number>;
  render(t: number): string;
}

/** Where a handler's moving answer is kept on its event (see {@link declareMovingAnswer}). */
const MOVING = 'perpsCacheMovingAnswer';
/** Set on an event whose answer the cache is computing (and will store if it can). */
const COMPUTING = 'perpsCacheComputing';

/** Whether the cache is computing the answer of `event`: it will then ask a moving answer for its bound. */
export function computingForCache(event: H3Event): boolean {
  return event.context[COMPUTING] === true;
}

/**
 * Declares that the answer being computed for `event` is `answer.render(t)` at every clock t from
 * now up to `answer.validUntil`; the cache then stores the renderer and serves each hit rendered
 * at its own clock (test/cache/cache-moving-windows.test.ts compares them with uncached answers across
 * every bound).
 */
export function declareMovingAnswer(event: H3Event, answer: MovingAnswer): void {
  event.context[MOVING] = answer;
}

/** Marks `event` as one whose answer the cache is computing (see {@link computingForCache}). */
export function markComputing(event: H3Event): void {
  event.context[COMPUTING] = true;
}

/** The moving answer the handler of `event` declared, if any (see {@link declareMovingAnswer}). */
export function movingAnswerOf(event: H3Event): MovingAnswer | undefined {
  return event.context[MOVING] as MovingAnswer | undefined;
}

/** The validity the handler of `event` declared, if any (see {@link declareValidUntil}). */
export function declaredValidUntil(event: H3Event): number | undefined {
  return event.context[VALID_UNTIL] as number | undefined;
}
