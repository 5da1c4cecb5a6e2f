import { appendRetrying } from '../../ingest/append-retry.ts';
import type { IncomingBatch } from '../../journal/rows.ts';
import { log } from '../../lib/log.ts';
import type { Service } from '../../service.ts';
import type { Simulator } from './simulator.ts';
import { checkpointOf, mergeBatches, saveSimulatorState, saveSimulatorStateAsync, SIMULATE_SOURCE, type SimulateSourceOptions } from './source.ts';
import { MINUTE_MS } from '../../lib/time.ts';

/** How often the live simulator's state is saved (a restart replays at most this much, deduped). */
const SAVE_EVERY_MS = 60_000;

/** Splits a time-ordered batch into the rows at or before `t` and the rest. */
function splitAt(b: IncomingBatch, t: number): [IncomingBatch, IncomingBatch] {
  const cut = <T extends { time: number }>(rows: T[]): [T[], T[]] => {
    let i = 0;
    while (i < rows.length && rows[i]!.time <= t) i++;
    return [rows.slice(0, i), rows.slice(i)];
  };
  const [f1, f2] = cut(b.fills);
  const [m1, m2] = cut(b.marketSnapshots);
  const [p1, p2] = cut(b.positionSnapshots);
  return [
    { fills: f1, marketSnapshots: m1, positionSnapshots: p1 },
    { fills: f2, marketSnapshots: m2, positionSnapshots: p2 },
  ];
}

/**
 * Keeps the simulator running in real time after the backfill, in live mode (see
 * `Simulator.goLive`). The simulator works in whole minutes, so each minute is simulated as it
 * begins and its rows are held back until the wall clock passes their timestamps: every
 * `everyMs` the rows now due are appended, so fills arrive within a tick of their time. The
 * journal checkpoint records the first minute not yet fully appended; the simulator state is
 * saved only when nothing is held back, so a restart resumes from a consistent point (rows
 * produced again are dropped as duplicates). Ticks never overlap. `stop()` waits for the tick in
 * flight and saves what it can.
 */
export function startLiveSimulation(service: Service, sim: Simulator, opts: SimulateSourceOptions, everyMs: number) {
  sim.goLive();
  saveSimulatorState(service.dataDir, sim, opts); // nothing is held yet: a consistent point
  service.source.setSource('simulated');
  service.source.set('live', { progress: null, etaS: null, completeToMs: null, reason: null });
  const stopping = new AbortController();
  let held: IncomingBatch = { fills: [], marketSnapshots: [], positionSnapshots: [] };
  let busy: Promise<void> | undefined;
  let lastSave = Date.now();

  const tick = async (): Promise<void> => {
    const now = Date.now();
    const nothingHeld = !held.fills.length && !held.marketSnapshots.length && !held.positionSnapshots.length;
    if (nothingHeld && now - lastSave >= SAVE_EVERY_MS) {
      await saveSimulatorStateAsync(service.dataDir, sim, opts); // every row before sim.time is in the journal
      lastSave = now;
    }
    while (sim.time <= now) held = mergeBatches([held, ...sim.advance(sim.time + MINUTE_MS)]);
    const [due, rest] = splitAt(held, now);
    held = rest;
    const heldFrom = Math.min(...[rest.fills[0], rest.marketSnapshots[0], rest.positionSnapshots[0]].map((r) => r?.time ?? Infinity));
    const simulatedTo = Number.isFinite(heldFrom) ? Math.floor(heldFrom / MINUTE_MS) * MINUTE_MS : sim.time;
    if (due.fills.length || due.marketSnapshots.length || due.positionSnapshots.length) {
      // a failed append (a full disk) pauses here and is retried with backoff; rows it could not
      // append before a stop are held again, so the state saved on stop never skips them
      const r = await appendRetrying(service, { ...due, checkpoint: checkpointOf(sim, opts, simulatedTo) }, { source: SIMULATE_SOURCE }, { signal: stopping.signal }).catch((err: unknown) => {
        held = mergeBatches([due, held]);
        throw err;
      });
      if (!r) held = mergeBatches([due, held]);
    }
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = tick()
      .catch((err: unknown) => log.error('simulate: live tick failed', err))
      .finally(() => {
        busy = undefined;
      });
  }, everyMs);
  log.info(`simulate: live (activity x${sim.options.liveBoost}), appending every ${everyMs / 1000} s`);
  return {
    async stop(): Promise<void> {
      clearInterval(timer);
      stopping.abort();
      await busy;
      // rows held back are not in the journal: a saved state would skip them, so save only
      // when none are held (the restart then regenerates from the last saved state)
      if (!held.fills.length && !held.marketSnapshots.length && !held.positionSnapshots.length) {
        saveSimulatorState(service.dataDir, sim, opts);
      }
    },
  };
}
