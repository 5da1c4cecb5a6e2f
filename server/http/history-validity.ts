/**
 * The response-cache bound of the history endpoints (6, 8, 9, 11) when `to` is defaulted to now, so
 * the window moves with the clock (server/http/cache.ts): how long the answer keeps its data, and
 * how its envelope moves meanwhile (`to` = the clock; `from` moves with it unless it was given and
 * is not clamped). With the journal unchanged (an append drops the cache anyway), the data changes
 * only when
 *  - a bucket edge is crossed: the bucket of `to` (a new bucket, the 10,000-bucket cap) or of a
 *    moving `from` (the first bucket; endpoint 11 reads whole hours, so for it the hour of `from`
 *    and the hours that start before `to`);
 *  - a fill enters at the end or leaves at a moving start (6, 9: exact sums over [from, to); 8: the
 *    replay and the last bucket's state at now), or a market snapshot enters at the end (8);
 *  - the plan floor starts clamping a given `from` (it then moves).
 * Each bound is an inclusive epoch-ms instant; the earliest one is declared. A fill or snapshot
 * bound is only looked up within the span the bucket bounds leave, so the probes read little.
 */
import type { H3Event } from 'h3';
import { declareMovingAnswer } from './cache.ts';
import { depthDays, type HistoryKind, type HistoryWindow } from './history-window.ts';
import { isoFromMs } from '../db/values.ts';
import type { PlanName } from '../keys/plans.ts';
import type { Service } from '../service.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Which journal events an endpoint's data moves with (see the file comment). */
export type HistoryEvents = 'fills' | 'fills+snapshots' | 'hours';

const floorTo = (x: number, step: number): number => Math.floor(x / step) * step;

/** The last instant at which the bucket (of size `step`) holding `x` is still the one holding `x + (t - now)`. */
const sameBucketThrough = (x: number, step: number, now: number): number => now + (floorTo(x, step) + step - 1 - x);

/**
 * Until when (epoch ms, inclusive) the answer computed for window `w` keeps its data (`fromMoves`:
 * its `from` moves with the clock). Only for a defaulted `to` (w.to = w.now).
 */
async function validity(service: Service, w: HistoryWindow, given: { market?: string }, fromMoves: boolean,
  plan: PlanName, kind: HistoryKind, events: HistoryEvents): Promise<number> {
  const now = w.now;
  const edge = events === 'hours' ? HOUR : w.bucketMs;
  const bounds: number[] = [];
  // the bucket of `to`: bucketCount reads floor((to - 1) / b), the OI grid the bucket of `to` itself
  bounds.push(Math.min(floorTo(now - 1, w.bucketMs) + w.bucketMs, floorTo(now, w.bucketMs) + w.bucketMs - 1));
  if (events === 'hours') bounds.push(Math.ceil(now / HOUR) * HOUR); // an hour enters when `to` passes its start
  if (fromMoves) bounds.push(sameBucketThrough(w.from, edge, now), sameBucketThrough(w.from, w.bucketMs, now));
  const days = depthDays(plan, kind);
  if (!fromMoves && days !== null) bounds.push(w.from + days * DAY); // then the floor starts clamping it
  let until = Math.min(...bounds);
  if (events !== 'hours' && until > now) {
    const market = given.market ?? null;
    const span = until - now + 1;
    const [fills] = await service.db.query('api/window-fill-edges', {
      market, enter_lo: now, enter_hi: now + span,
      // 8 reads states at bucket ends, not sums from `from`: only the bucket of `from` matters there
      leave_lo: w.from, leave_hi: fromMoves && events === 'fills' ? w.from + span : w.from,
    });
    // a fill at f enters when to > f, leaves when from > f
    if (typeof fills?.enter === 'number') until = Math.min(until, fills.enter);
    if (typeof fills?.leave === 'number') until = Math.min(until, now + (fills.leave - w.from));
    if (events === 'fills+snapshots') {
      const [snap] = await service.db.query('api/window-snapshot-enter', { market, now });
      if (typeof snap?.enter === 'number') until = Math.min(until, snap.enter);
    }
  }
  return until;
}

/**
 * For a history answer whose `to` was defaulted: declares on `event` how long its data holds and
 * how to render the envelope `{ interval, from, to, data }` at a later clock (byte for byte what
 * JSON.stringify of `historyEnvelope` gives then). Does nothing for an explicit `to`
 * (server/http/cache.ts bounds those from the plan alone).
 */
export function declareHistoryValidity(service: Service, event: H3Event, w: HistoryWindow,
  given: { from?: number; to?: number; market?: string }, plan: PlanName, kind: HistoryKind, events: HistoryEvents,
  data: unknown[]): void {
  if (given.to !== undefined) return;
  const fromMoves = given.from === undefined || w.clamped;
  const head = `{"interval":${JSON.stringify(w.interval)},"from":"`;
  let tail: string | undefined; // serialized on first use: never when the cache is off
  declareMovingAnswer(event, {
    validUntil: () => validity(service, w, given, fromMoves, plan, kind, events),
    render: (t) => {
      tail ??= `,"data":${JSON.stringify(data)}}`;
      return `${head}${isoFromMs(fromMoves ? w.from + (t - w.now) : w.from)}","to":"${isoFromMs(t)}"${tail}`;
    },
  });
}
