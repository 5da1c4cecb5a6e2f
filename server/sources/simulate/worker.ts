/**
 * The simulator in a worker thread, so a backfill simulates the next stretch while the main
 * thread appends the last one (see `./thread.ts`, which starts it). It restores the
 * state it is given, runs to `until`, and posts groups of whole days of about `rowsPerAppend`
 * rows (smaller ones first) as column blocks (their buffers are transferred, not copied), each
 * with the simulator's state after it. It stays at most one unacknowledged group ahead of the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { concatGroups, packBatches, rowsOf, type ColumnGroup } from '../../ingest/column-groups.ts';
import { transferList } from '../../ingest/columns.ts';
import { Simulator } from './simulator.ts';

/** What the worker is started with. */
export interface WorkerStart {
  state: unknown;
  until: number;
  rowsPerAppend: number;
}

/** A group of days, posted to the main thread. */
export interface WorkerGroup extends ColumnGroup {
  type: 'group';
  /** simulated time after the group: every row before it is in this or an earlier group */
  time: number;
  /** the simulator's state at `time` */
  state: unknown;
}
export type WorkerMessage = WorkerGroup | { type: 'done' } | { type: 'error'; message: string };

const port = parentPort!;
let acks = 0;
let waiting: (() => void) | undefined;
port.on('message', (m: { type: 'ack' }) => {
  if (m.type !== 'ack') return;
  acks++;
  waiting?.();
});

/** The first group is this fraction of `rowsPerAppend`, each next one twice the last, up to it:
 * the main thread, idle until the first group arrives, starts appending within a second. */
const FIRST_GROUP_SHARE = 1 / 8;

async function run({ state, until, rowsPerAppend }: WorkerStart): Promise<void> {
  const sim = Simulator.restore(state);
  let sent = 0;
  let days: ColumnGroup[] = [];
  let rows = 0;
  let target = Math.max(1, Math.floor(rowsPerAppend * FIRST_GROUP_SHARE));
  const post = async () => {
    const group: WorkerGroup = {
      type: 'group',
      ...concatGroups(days),
      time: sim.time,
      state: sim.saveState(),
    };
    days = [];
    rows = 0;
    target = Math.min(rowsPerAppend, target * 2);
    // at most one group waits on the main thread: memory stays bounded whatever the speeds
    while (sent - acks >= 1) await new Promise<void>((resolve) => (waiting = resolve));
    port.postMessage(group, [...transferList(group.fills), ...transferList(group.marketSnapshots), ...transferList(group.positionSnapshots)]);
    sent++;
  };
  for (const day of sim.batches(until, true)) {
    // packed at once: the day's row objects die young (see concatBlocks)
    days.push(packBatches([day]));
    rows += rowsOf(day);
    if (rows >= target) await post();
  }
  if (days.length) await post();
  port.postMessage({ type: 'done' } satisfies WorkerMessage);
}

run(workerData as WorkerStart).catch((err: unknown) => {
  port.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies WorkerMessage);
});
