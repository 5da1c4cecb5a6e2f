/**
 * The response-cache bound of the history endpoints
 * (`GET /v1/alpha/{liquidations,open-interest,volume,funding-rates}/history`) when their window moves
 * with the clock (server/cache/response-cache.ts): a defaulted `to` is the clock, and `from` moves with it when
 * it is the plan floor (clamped) or was defaulted along with `to`. The cache keeps such an answer's
 * data and renders its envelope at each hit's clock, as long as the data holds. With the journal
 * unchanged (an append drops the cache anyway), the data changes only when
 *  - a bucket edge is crossed: the bucket of a moving `to` (a new bucket, the 10,000-bucket cap)
 *    or of a moving `from` (the first bucket; `GET /v1/alpha/funding-rates/history` reads whole hours,
 *    so for it the hour of `from` and the hours that start before `to`);
 *  - a fill enters at a moving end or leaves at a moving start (liquidation and volume history:
 *    exact sums over [from, to); open-interest history: the replay and the last bucket's state at
 *    now), or a market snapshot enters at the end (open-interest history);
 *  - the plan floor starts clamping a given `from` (it then moves), or reaches a fixed `to` (a 400).
 * Each bound is an inclusive epoch-ms instant; the earliest one is declared. A fill or snapshot
 * bound is only looked up within the span the bucket bounds leave, so the probes read little.
 */
import type { H3Event } from 'h3';
import { computingForCache, declareMovingAnswer } from '../cache/answer-declarations.ts';
import type { EdgeProbe } from '../read/buckets/mirror-probe.ts';
import { depthDays, type HistoryKind, type HistoryWindow } from '../read/window.ts';
import { isoFromMs } from '../db/values.ts';
import type { PlanName } from '../keys/plans.ts';
import type { Service } from '../service.ts';
import type { Protocol } from '../journal/rows.ts';
import { DAY_MS, HOUR_MS } from '../lib/time.ts';

/** Which journal events an endpoint's data moves with (see the file comment). */
export type HistoryEvents = 'fills' | 'fills+snapshots' | 'hours';

const floorTo = (x: number, step: number): number => Math.floor(x / step) * step;

/** The last instant at which the bucket (of size `step`) holding `x` is still the one holding `x + (t - now)`. */
const sameBucketThrough = (x: number, step: number, now: number): number => now + (floorTo(x, step) + step - 1 - x);

/** Which edges of a window move with the clock. */
interface Motion {
  /** `to` was defaulted: it is the clock */
  to: boolean;
  /** `from` is the plan floor, or `to` minus the default span while `to` moves */
  from: boolean;
}

/**
 * Until when (epoch ms, inclusive) the answer computed for window `w` keeps its data while its
 * moving edges (`moves`) follow the clock.
 */
async function validity(
  service: Service,
  protocol: Protocol,
  w: HistoryWindow,
  market: string | null,
  moves: Motion,
  plan: PlanName,
  kind: HistoryKind,
  events: HistoryEvents,
  probe?: EdgeProbe,
): Promise<number> {
  const now = w.now;
  const bounds: number[] = [];
  if (moves.to) {
    // the bucket of `to`: bucketCount reads floor((to - 1) / b), the OI grid the bucket of `to` itself
    bounds.push(Math.min(floorTo(now - 1, w.bucketMs) + w.bucketMs, floorTo(now, w.bucketMs) + w.bucketMs - 1));
    if (events === 'hours') bounds.push(Math.ceil(now / HOUR_MS) * HOUR_MS); // an hour enters when `to` passes its start
  }
  // the bucket of `from` (funding-rate history: its hour, which changes no later than its bucket of
  // whole hours)
  if (moves.from) bounds.push(sameBucketThrough(w.from, events === 'hours' ? HOUR_MS : w.bucketMs, now));
  const days = depthDays(plan, kind);
  if (days !== null) {
    if (!moves.from) bounds.push(w.from + days * DAY_MS); // then the floor starts clamping it
    if (!moves.to) bounds.push(w.to + days * DAY_MS - 1); // then `to` is at or below the floor: a 400
  }
  let until = Math.min(...bounds);
  // open-interest history reads states at bucket ends, not sums from `from`: only the bucket of `from`
  // matters there
  const leaving = moves.from && events === 'fills';
  if ((moves.to && events !== 'hours') || leaving) {
    if (until <= now) return until;
    const span = until - now + 1;
    // the first fill the moving end would take in, and the first the moving start would drop: from
    // the mirror's probe when it can tell (null: none), else (undefined) from the journal
    let enter = moves.to ? (probe ? probe.firstFill(now, now + span) : undefined) : null;
    let leave = leaving ? (probe ? probe.firstFill(w.from, w.from + span) : undefined) : null;
    if (enter === undefined || leave === undefined) {
      const [fills] = await service.db.query('api/window-fill-edges', {
        protocol,
        market,
        enter_lo: now,
        enter_hi: enter === undefined ? now + span : now,
        leave_lo: w.from,
        leave_hi: leave === undefined ? w.from + span : w.from,
      });
      if (enter === undefined) enter = typeof fills?.enter === 'number' ? fills.enter : null;
      if (leave === undefined) leave = typeof fills?.leave === 'number' ? fills.leave : null;
    }
    // a fill at f enters when to > f, leaves when from > f
    if (enter !== null) until = Math.min(until, enter);
    if (leave !== null) until = Math.min(until, now + (leave - w.from));
    if (moves.to && events === 'fills+snapshots') {
      const snap = probe ? probe.snapshotEnter(now) : (await service.db.query('api/window-snapshot-enter', { protocol, market, now }))[0]?.enter;
      if (typeof snap === 'number') until = Math.min(until, snap);
    }
  }
  return until;
}

/**
 * For a history answer whose window moves with the clock (a defaulted `to`, or a `from` clamped to
 * the plan floor): call before computing the data, then call the returned function with the data.
 * It declares on `event` how long the data holds and how to render the envelope
 * `{ interval, from, to, data }` at a later clock (byte for byte what JSON.stringify of
 * `historyEnvelope` gives then). Does nothing for a fixed window (server/cache/response-cache.ts bounds those
 * from the plan alone) or one that ends in the future (not cached). When the response cache is
 * computing this answer (it will ask for the bound), the bound's queries start at once, beside
 * the route's own, rather than after them (both read the same cold edges of the window).
 * An answer from the in-memory mirror passes its `probe` (server/read/buckets/mirror-probe.ts) instead,
 * which tells the bound's fills and snapshots from memory in the common cases.
 */
export function declareHistoryValidity(
  service: Service,
  protocol: Protocol,
  event: H3Event,
  w: HistoryWindow,
  given: { from?: number; to?: number; market?: string },
  plan: PlanName,
  kind: HistoryKind,
  events: HistoryEvents,
  probe?: EdgeProbe,
): (data: unknown[]) => void {
  const moves: Motion = { to: given.to === undefined, from: w.clamped || (given.from === undefined && given.to === undefined) };
  if ((!moves.to && !moves.from) || w.to > w.now) return () => undefined;
  const bound = (): Promise<number> => validity(service, protocol, w, given.market ?? null, moves, plan, kind, events, probe);
  // with a probe (an answer from the mirror) the bound rarely queries: it is computed when asked
  const early = computingForCache(event) && !probe ? bound() : null;
  early?.catch(() => undefined); // the route may fail before the cache asks
  const head = `{"interval":${JSON.stringify(w.interval)},"from":"`;
  return (data) => {
    // serialized on first use (never when the cache is off); the rows are let go then, so a kept
    // answer holds its JSON only
    let rows: unknown[] | null = data;
    let tail: string | undefined;
    declareMovingAnswer(event, {
      validUntil: () => early ?? bound(),
      render: (t) => {
        if (tail === undefined) {
          tail = `,"data":${JSON.stringify(rows)}}`;
          rows = null;
        }
        const from = moves.from ? w.from + (t - w.now) : w.from;
        return `${head}${isoFromMs(from)}","to":"${isoFromMs(moves.to ? t : w.to)}"${tail}`;
      },
    });
  };
}
