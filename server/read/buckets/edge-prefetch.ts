/**
 * Reads ahead the edge buckets that moving history windows are about to need.
 *
 * A window whose `from` follows the clock (the default span before a defaulted `to`, or a plan's
 * lookback floor) starts inside one 5-minute bucket for five minutes, then in the next; the first
 * request there needs that bucket's raw fills (server/read/buckets/edge-buckets.ts). On a big journal
 * that bucket is usually not in the page cache: the read took 7-18 ms of a 6, 8 or 9 answer on the
 * 12.5M-fill bench journal. So once a minute the buckets such a `from` is in, or reaches before
 * the next tick, are read into the edge cache, one after another, when the mirror says they hold
 * fills of the mirror's protocol (a request reads no others). That is at most two reads per span and tick, usually
 * none: a bucket stays kept until a change touches it.
 */
import { PLAN_NAMES } from '../../keys/plans.ts';
import type { HistoryMirror } from './history-mirror.ts';
import { DEFAULT_SPAN_MS, depthDays, type HistoryKind } from '../window.ts';
import { DAY_MS, FIVE_MINUTES_MS } from '../../lib/time.ts';

/** How often the buckets ahead are checked. */
export const PREFETCH_EVERY_MS = 60_000;
/** How soon to look again while the mirror is not loaded. */
const UNTIL_LOADED_MS = 2_000;
const KINDS: readonly HistoryKind[] = ['history', 'liquidations'];

/** How far before the clock a moving `from` of `GET /v1/alpha/{liquidations,open-interest,volume}/history` can be: the default spans and the plans' floors. */
export function movingSpans(): number[] {
  const spans = new Set<number>(Object.values(DEFAULT_SPAN_MS));
  for (const plan of PLAN_NAMES) {
    for (const kind of KINDS) {
      const days = depthDays(plan, kind);
      if (days !== null) spans.add(days * DAY_MS);
    }
  }
  return [...spans].sort((a, b) => a - b);
}

/** The bucket starts a moving `from` is in at `now` or reaches by `now + aheadMs`, for every span. */
export function bucketsAhead(now: number, aheadMs: number, spans: readonly number[]): number[] {
  const starts = new Set<number>();
  for (const span of spans) {
    for (let start = Math.floor((now - span) / FIVE_MINUTES_MS) * FIVE_MINUTES_MS; start < now + aheadMs - span; start += FIVE_MINUTES_MS) starts.add(start);
  }
  return [...starts];
}

/**
 * Reads into `mirror.edges` the buckets {@link bucketsAhead} names that hold fills of its protocol, one
 * after another. Returns false (reading nothing) while the mirror is not loaded.
 */
export async function readAhead(mirror: HistoryMirror, now: number, aheadMs: number, spans = movingSpans(), stopped: () => boolean = () => false): Promise<boolean> {
  const view = await mirror.current();
  if (!view) return false;
  for (const start of bucketsAhead(now, aheadMs, spans)) {
    if (stopped()) break;
    if (view.variants.some((v) => v.cell('fill_count', (start - v.origin) / FIVE_MINUTES_MS) > 0)) await mirror.edges.fills(start);
  }
  return true;
}

/**
 * Runs {@link readAhead} once the mirror is loaded and then every {@link PREFETCH_EVERY_MS} (an
 * unref'd timer: never what keeps the process alive). `now` must be the service's own clock, not
 * the response cache's view of it (read outside a request, that turns the cache off). Returns
 * what stops it.
 */
export function prefetchEdges(mirror: HistoryMirror, now: () => number, everyMs = PREFETCH_EVERY_MS): () => void {
  const spans = movingSpans();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = (): void => {
    // a failed read (the service closing, say) is retried at the next tick; requests read it anyway
    void readAhead(mirror, now(), everyMs, spans, () => stopped)
      .catch(() => true)
      .then((loaded) => {
        if (stopped) return;
        timer = setTimeout(loop, loaded ? everyMs : UNTIL_LOADED_MS);
        timer.unref();
      });
  };
  loop();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
