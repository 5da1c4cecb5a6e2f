import { reasonOf } from '../../ingest/append-retry.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { backfillBuildingRollups } from '../../../jobs/rollup-refresh.ts';
import { rowsOf } from '../../ingest/column-groups.ts';
import { log } from '../../lib/log.ts';
import type { Service } from '../../service.ts';
import { ReplayReader } from './reader.ts';
import { DAY_MS } from '../../lib/time.ts';

/** The checkpoint slot of this source in the journal. */
export const REPLAY_SOURCE = 'replay';

export interface ReplayOptions {
  /** a data directory, a journal directory or a copied partition set */
  from: string;
  /** source time runs `speed` times faster than the wall clock; `max`: as fast as appends go */
  speed: number | 'max';
  signal?: AbortSignal;
  /** wall-clock ms between paced appends (default 250) */
  tickMs?: number;
}

/** What the journal checkpoint records for this source: every row with time < cursor is appended. */
interface ReplayCheckpoint {
  from: string;
  cursor: number;
}

export interface ReplayResult {
  fills: number;
  duplicates: number;
  /** the whole source was replayed (false: stopped by the signal) */
  done: boolean;
}

/** Parses `--speed`: a positive number or `max`. */
export function parseSpeed(s: string): number | 'max' {
  if (s === 'max') return 'max';
  const n = Number(s);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`--speed must be a positive number or "max", got "${s}"`);
  return n;
}

/**
 * The `replay` source: re-streams an existing journal through the one append path, in time
 * order, at the original pace × `speed` (each tick appends the rows whose source time the scaled
 * clock has passed) or, with `max`, a UTC day per append. Rows keep their times and values; the
 * append path assigns new `seq` and `position_id` (on an empty target, and a source whose seq
 * order is its time order, they come out the same). Each append stores `{ from, cursor }` in the
 * checkpoint, cut at a time boundary (every row before `cursor` is in), so a restart resumes at
 * the cursor with nothing lost or doubled (fills would be deduped anyway; snapshots have no key).
 * A replay into an empty data directory that runs to the end marks the rollups it built refreshed,
 * as a simulator backfill does ({@link backfillBuildingRollups}).
 */
export function runReplay(service: Service, opts: ReplayOptions): Promise<ReplayResult> {
  return backfillBuildingRollups(
    service,
    () => replay(service, opts),
    (r) => r.done,
  );
}

async function replay(service: Service, opts: ReplayOptions): Promise<ReplayResult> {
  const reader = new ReplayReader(service.db, opts.from);
  const cp = service.sourceCheckpoint(REPLAY_SOURCE) as ReplayCheckpoint | undefined;
  if (cp && cp.from !== reader.root) {
    throw new Error(`this data directory is replaying ${cp.from}; use an empty data directory to replay ${reader.root}`);
  }
  const result: ReplayResult = { fills: 0, duplicates: 0, done: false };
  const range = await reader.range();
  if (!range) {
    log.warn(`replay: ${reader.root} is empty`);
    return { ...result, done: true };
  }
  const end = range.last + 1;
  let cursor = Math.max(cp?.cursor ?? range.first, range.first);
  if (cursor >= end) {
    log.info(`replay: ${reader.root} already replayed`);
    return { ...result, done: true };
  }
  log.start(`replay: ${reader.root} from ${new Date(cursor).toISOString()} to ${new Date(range.last).toISOString()} at ${opts.speed === 'max' ? 'max speed' : `${opts.speed}x`}`);

  const appendUpTo = async (to: number) => {
    const batch = await reader.read(cursor, to);
    const checkpoint: ReplayCheckpoint = { from: reader.root, cursor: to };
    if (rowsOf(batch)) {
      const r = await service.append({ ...batch, checkpoint }, { source: REPLAY_SOURCE });
      result.fills += r.fills.length;
      result.duplicates += r.duplicates;
    }
    cursor = to;
  };

  const wallStart = performance.now();
  const sourceStart = cursor;
  while (cursor < end && !opts.signal?.aborted) {
    if (opts.speed === 'max') {
      await appendUpTo(Math.min(end, (Math.floor(cursor / DAY_MS) + 1) * DAY_MS));
      continue;
    }
    const target = Math.min(end, Math.floor(sourceStart + (performance.now() - wallStart) * opts.speed));
    if (target > cursor) await appendUpTo(target);
    if (cursor < end) await sleep(opts.tickMs ?? 250, undefined, { signal: opts.signal }).catch(() => undefined);
  }
  result.done = cursor >= end;
  if (result.done) {
    // an empty tail leaves the checkpoint behind the end: record it so a restart knows it is done
    if (service.sourceCheckpoint(REPLAY_SOURCE) === undefined || (service.sourceCheckpoint(REPLAY_SOURCE) as ReplayCheckpoint).cursor < end) {
      await service.append({ fills: [], marketSnapshots: [], positionSnapshots: [], checkpoint: { from: reader.root, cursor: end } }, { source: REPLAY_SOURCE });
    }
    log.success(`replay: done, ${result.fills} fills appended (${result.duplicates} duplicates skipped); journal at seq ${service.lastSeq()}`);
  }
  return result;
}

/** A running replay behind the server: `stop()` ends it after the append in flight. */
export function startReplay(service: Service, opts: Omit<ReplayOptions, 'signal'>): { stop(): Promise<void> } {
  const abort = new AbortController();
  service.source.setSource('replay');
  const running = runReplay(service, { ...opts, signal: abort.signal }).catch((err: unknown) => {
    service.source.set('stopped', { reason: reasonOf(err) });
    log.error('replay: source stopped', err);
  });
  return {
    async stop() {
      abort.abort();
      await running;
    },
  };
}
