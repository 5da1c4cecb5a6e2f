import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { backfillBuildingRollups } from '../../../jobs/rollup-refresh.ts';
import { writeFileAtomic, writeFileAtomicAsync } from '../../lib/fs-atomic.ts';
import type { IncomingBatch } from '../../journal/rows.ts';
import { log } from '../../lib/log.ts';
import { tryThenRetry } from '../../lib/retry.ts';
import { progress } from '../../lib/progress.ts';
import type { Service } from '../../service.ts';
import { Simulator } from './simulator.ts';
import { simulateInThread } from './thread.ts';
import { batchOfGroup } from '../../ingest/column-groups.ts';
import { appendRetrying } from '../../ingest/append-retry.ts';
import { checkpointWhenLarge, unwrittenLimitFrom } from '../../db/unwritten-changes.ts';
import { MINUTE_MS } from '../../lib/time.ts';

/** The checkpoint slot of this source in the journal. */
export const SIMULATE_SOURCE = 'simulate';
/**
 * Rows per append during a backfill (files are still one per day). Up to three groups are in
 * memory at once (one appending, the next decoded, the one after simulated): at 600,000 rows the
 * main thread's heap alone reached ~590 MB, at 200,000 ~340, for no measurable loss of speed
 * (docs/operations.md, "Memory").
 */
const ROWS_PER_APPEND = 200_000;

export interface SimulateSourceOptions {
  seed: number;
  scale: number;
}

/** What the journal checkpoint records for this source. */
interface SimulateCheckpoint extends SimulateSourceOptions {
  simulatedTo: number;
  /** when the simulator went live and at what boost (part of its timeline: see openSimulator) */
  liveFrom: number | null;
  liveBoost: number;
}

/** Epoch ms the journal's simulated rows reach (undefined: never simulated into this data directory). */
export function simulatedTo(service: Service): number | undefined {
  return (service.sourceCheckpoint(SIMULATE_SOURCE) as SimulateCheckpoint | undefined)?.simulatedTo;
}

/** The checkpoint of a simulator whose rows before `simulatedTo` are all appended. */
export function checkpointOf(sim: Simulator, opts: SimulateSourceOptions, simulatedTo = sim.time): SimulateCheckpoint {
  return { ...opts, simulatedTo, liveFrom: sim.options.liveFrom, liveBoost: sim.options.liveBoost };
}

/** The simulator's full state, saved beside the journal so a restart need not replay history. */
interface SavedState extends SimulateSourceOptions {
  simulatedTo: number;
  state: unknown;
}

function statePathOf(dataDir: string): string {
  return join(dataDir, 'sources', 'simulate-state.json');
}

/** The simulator's state as saved, taken now; the directory it goes to is made. */
function savedState(dataDir: string, sim: Simulator, opts: SimulateSourceOptions): { path: string; text: string } {
  const path = statePathOf(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  return { path, text: JSON.stringify({ ...opts, simulatedTo: sim.time, state: sim.saveState() } satisfies SavedState) };
}

/** Saves a simulator state taken elsewhere (the backfill thread's, at `simulatedTo`), off the event loop. */
async function saveStateAsync(dataDir: string, opts: SimulateSourceOptions, simulatedTo: number, state: unknown): Promise<void> {
  const path = statePathOf(dataDir);
  mkdirSync(dirname(path), { recursive: true });
  await writeFileAtomicAsync(path, JSON.stringify({ seed: opts.seed, scale: opts.scale, simulatedTo, state } satisfies SavedState));
}

/** Saves the simulator's state (after the journal committed everything it produced). */
export function saveSimulatorState(dataDir: string, sim: Simulator, opts: SimulateSourceOptions): void {
  const { path, text } = savedState(dataDir, sim, opts);
  writeFileAtomic(path, text);
}

/**
 * {@link saveSimulatorState} with the write off the event loop (the live loop, beside requests:
 * ~5 MB at scale 10). The state is taken before the first await, so what is saved is the state
 * at the call.
 */
export async function saveSimulatorStateAsync(dataDir: string, sim: Simulator, opts: SimulateSourceOptions): Promise<void> {
  const { path, text } = savedState(dataDir, sim, opts);
  await writeFileAtomicAsync(path, text);
}

/**
 * The simulator to continue the journal with: restored from its saved state when that state is
 * not ahead of the journal (fills between the two are produced again and dropped as
 * duplicates, so a crash at any point loses and doubles nothing); a fresh one otherwise.
 * A journal made with another seed or scale is refused rather than mixed.
 */
export function openSimulator(service: Service, opts: SimulateSourceOptions): Simulator {
  const cp = service.sourceCheckpoint(SIMULATE_SOURCE) as SimulateCheckpoint | undefined;
  if (cp && (cp.seed !== opts.seed || cp.scale !== opts.scale)) {
    throw new Error(`this data directory was simulated with --seed ${cp.seed} --scale ${cp.scale}; ` + `start with those, or use an empty data directory for seed ${opts.seed} scale ${opts.scale}`);
  }
  const path = statePathOf(service.dataDir);
  let sim: Simulator | undefined;
  if (cp && existsSync(path)) {
    const saved = JSON.parse(readFileSync(path, 'utf8')) as SavedState;
    if (saved.seed === opts.seed && saved.scale === opts.scale && saved.simulatedTo <= cp.simulatedTo) sim = Simulator.restore(saved.state);
  }
  if (cp && !sim) log.warn('simulate: no usable saved simulator state; regenerating from the start (journaled fills are skipped as duplicates)');
  sim ??= new Simulator({ seed: opts.seed, scale: opts.scale });
  // the switch to live mode is part of the timeline: a state saved before it must replay it
  if (cp?.liveFrom != null) sim.goLive(cp.liveBoost, cp.liveFrom);
  return sim;
}

/** Concatenates batches (each in time order, consecutive) into one. */
export function mergeBatches(batches: readonly IncomingBatch[]): IncomingBatch {
  return {
    fills: batches.flatMap((b) => b.fills),
    marketSnapshots: batches.flatMap((b) => b.marketSnapshots),
    positionSnapshots: batches.flatMap((b) => b.positionSnapshots),
  };
}

/**
 * Advances the simulator to `until` (floored to a minute, as the simulator works in minutes),
 * appending through the one append path in groups of whole days of about `rowsPerAppend` rows.
 * The simulation runs in a worker thread (see simulate-thread.ts) a group ahead of the appends,
 * and hands its rows over in columns; `sim` then continues from where the last appended group
 * ended. Logs progress with an ETA. An aborted `signal` stops it after the current append.
 */
export async function simulateUntil(
  service: Service,
  sim: Simulator,
  opts: SimulateSourceOptions,
  until: number,
  { rowsPerAppend = ROWS_PER_APPEND, signal }: { rowsPerAppend?: number; signal?: AbortSignal } = {},
) {
  const end = Math.floor(until / MINUTE_MS) * MINUTE_MS;
  // progress in work, not time: a day with market snapshots costs about 3x one without
  const snapshotsFrom = sim.options.snapshotsFrom;
  const work = (t: number) => t + 2 * Math.max(0, t - snapshotsFrom);
  const from = work(sim.time);
  const bar = progress('simulate: backfill', work(end) - from);
  let fills = 0;
  let duplicates = 0;
  let pending: Promise<unknown> = Promise.resolve();
  let appendedState: unknown;
  const unwrittenLimit = unwrittenLimitFrom();
  const total = work(end) - from;
  const report = (t: number) => {
    const done = total > 0 ? Math.min(1, (work(t) - from) / total) : 1;
    const elapsed = bar.elapsed();
    service.source.set(service.source.get().phase === 'retrying' ? 'retrying' : 'backfilling', {
      progress: done,
      etaS: done > 0 ? Math.round((elapsed / done) * (1 - done)) : null,
      completeToMs: t,
    });
  };
  report(sim.time);
  if (sim.time < end) {
    for await (const group of simulateInThread({ state: sim.saveState(), until: end, rowsPerAppend })) {
      if (signal?.aborted) break; // stops at a group boundary; what was appended stays consistent
      const batch = batchOfGroup(group, checkpointOf(sim, opts, group.time));
      await pending; // one append at a time; the next group is decoded meanwhile
      fills += batch.fills.length;
      // a failed append (a full disk) pauses the backfill and is retried, never skipped
      pending = appendRetrying(service, batch, { source: SIMULATE_SOURCE }, { signal }).then(async (r) => {
        if (!r) return; // stopped while retrying: the batch is not in the journal
        duplicates += r.duplicates;
        appendedState = group.state;
        await checkpointWhenLarge(service.db, unwrittenLimit);
        report(group.time);
        // the state at the group's end, beside the journal: a restart after a kill resumes here
        // instead of simulating again from the start
        await saveStateAsync(service.dataDir, opts, group.time, group.state);
      });
      pending.catch(() => undefined); // awaited before the next append or at the end: not unhandled
      bar.update(work(group.time) - from, `${fills.toLocaleString('en-US')} fills, simulated to ${new Date(group.time).toISOString().slice(0, 10)}`);
    }
  }
  await pending;
  if (appendedState !== undefined) sim.adopt(appendedState);
  return { fills: fills - duplicates, duplicates, seconds: bar.elapsed() };
}

/**
 * The backfill both `simulate` and `start` run: open (or resume) the simulator, append
 * everything up to `until`, save its state, log the outcome. Returns the simulator, ready to
 * continue (e.g. live).
 */
export async function backfillSimulator(service: Service, opts: SimulateSourceOptions, until: number, signal?: AbortSignal): Promise<Simulator> {
  service.source.setSource('simulated');
  service.source.set('starting');
  const sim = openSimulator(service, opts);
  // the simulator builds every rollup it appends: once complete (not stopped), nothing to refresh
  const r = await backfillBuildingRollups(
    service,
    async () => {
      // The simulator's thread takes a core: DuckDB with one thread fewer meanwhile, which on 2 cores
      // makes the backfill faster and cheaper (parallel scans cost more than they gained;
      // docs/performance.md, "Backfill threads").
      const threads = service.db.threads;
      if (threads > 1) await service.db.setThreads(threads - 1);
      try {
        return await simulateUntil(service, sim, opts, until, { signal });
      } finally {
        if (threads > 1) await service.db.setThreads(threads);
      }
    },
    () => !signal?.aborted,
  );
  // the derived state keeps no WAL: written to its file now, a crash in live mode later costs
  // start-up a catch-up of minutes of appends instead of the whole backfill. DuckDB refuses while
  // long reads pin committed changes (a working set loading can take a minute): then it is tried
  // again in the background, and the source goes on (it must not stop for it)
  // (the retries do not wait for the reads, so the writer, and the live appends, are not held)
  const t0 = performance.now();
  await tryThenRetry(() => service.db.checkpoint(), {
    what: 'simulate: writing the derived state to its file after the backfill',
    everyMs: 15_000,
    attempts: 40,
    retry: () => service.db.checkpoint(0),
    done: () => log.info(`simulate: derived state written to its file in ${((performance.now() - t0) / 1000).toFixed(1)} s`),
    onClose: (stop) => service.db.onClose(stop),
  });
  saveSimulatorState(service.dataDir, sim, opts);
  log.success(`simulate: ${r.fills.toLocaleString('en-US')} new fills (${r.duplicates} duplicates skipped) in ${r.seconds.toFixed(1)} s; ` + `journal at seq ${service.lastSeq()}`);
  return sim;
}
