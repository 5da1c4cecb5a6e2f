import type { Database, Writer } from '../db/database.ts';
import { catchUp } from '../derive/catch-up.ts';
import { applyStaged } from '../derive/apply.ts';
import { log } from '../log.ts';
import type { Checkpoint } from '../journal/checkpoint.ts';
import { commitBatch } from '../journal/commit.ts';
import type { Fill, IncomingBatch, IncomingFill, PositionSnapshot } from '../journal/rows.ts';
import { resetStaging, stageRows } from '../journal/stage.ts';
import type { LifecycleIndex } from './lifecycle-index.ts';
import { validateBatch } from './validate.ts';
import { PhaseTimer } from '../phase-timer.ts';

export interface AppendResult {
  /** the fills that were new, with their seq and position_id, in journal order */
  fills: Fill[];
  /** fills dropped because the journal already had their (protocol, tx, event_index) */
  duplicates: number;
  lastSeq: number;
}

export type AppendListener = (fills: readonly Fill[]) => void;

const fillKey = (f: IncomingFill): string => `${f.protocol}|${f.tx}|${f.event_index}`;
/** Journal order: by time; fills of the same instant keep the source's order (stable sort). */
const byTime = (a: IncomingFill, b: IncomingFill): number => a.time - b.time;

/**
 * The one append path every source goes through: validate, drop duplicates, assign `seq` and
 * `position_id`, commit the journal files atomically, fold the batch into the derived state,
 * then tell listeners (the stream). Appends are serialized on the database's writer.
 */
export class AppendPath {
  private readonly listeners = new Set<AppendListener>();
  private broken: Error | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly db: Database,
    private checkpoint: Checkpoint,
    private readonly lifecycles: LifecycleIndex,
  ) {}

  get lastSeq(): number {
    return this.checkpoint.lastSeq;
  }

  /** The resume point a source stored with its last committed batch. */
  sourceCheckpoint(source: string): unknown {
    return this.checkpoint.sources[source];
  }

  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(batch: IncomingBatch, source = 'default'): Promise<AppendResult> {
    validateBatch(batch);
    return this.db.write(async (w) => {
      if (this.broken) throw new Error(`append path stopped after an earlier failure: ${this.broken.message}`);
      const result = await this.appendLocked(w, batch, source);
      for (const listener of this.listeners) {
        try {
          listener(result.fills);
        } catch (err) {
          log.error('append listener failed', err);
        }
      }
      return result;
    });
  }

  private async appendLocked(w: Writer, batch: IncomingBatch, source: string): Promise<AppendResult> {
    const phases = new PhaseTimer();
    await resetStaging(w.connection);
    const { fresh, duplicates } = await this.dropDuplicates(w, batch.fills);
    phases.lap('dedup');
    const draft = this.lifecycles.draft();
    const commit = this.checkpoint.commit + 1;
    let seq = this.checkpoint.lastSeq;
    const fills: Fill[] = fresh.map((f) => ({ ...f, seq: ++seq, position_id: draft.assign(f) }));
    const positionSnapshots = await this.assignSnapshots(w, batch, fills);
    phases.lap('assign');
    if (fills.length === 0 && batch.marketSnapshots.length === 0 && positionSnapshots.length === 0 && batch.checkpoint === undefined) {
      return { fills, duplicates, lastSeq: this.checkpoint.lastSeq };
    }
    await stageRows(w.connection, 'batch_fills', fills);
    await stageRows(w.connection, 'batch_msnap', batch.marketSnapshots, commit);
    await stageRows(w.connection, 'batch_psnap', positionSnapshots, commit);

    const next: Checkpoint = {
      commit,
      lastSeq: seq,
      nextPositionId: draft.nextId,
      sources: batch.checkpoint === undefined ? this.checkpoint.sources : { ...this.checkpoint.sources, [source]: batch.checkpoint },
    };
    await commitBatch(w.connection, this.dataDir, next); // durable from here on
    phases.lap('journal');
    this.checkpoint = next;
    this.lifecycles.merge(draft);
    const counts = { fills: fills.length, marketSnapshots: batch.marketSnapshots.length, positionSnapshots: positionSnapshots.length };
    try {
      await applyStaged(w, counts, { seq: next.lastSeq, commit: next.commit });
    } catch (err) {
      // The journal has the batch but the derived state does not: fold it in from the files,
      // or stop taking appends (dedup would otherwise miss this batch).
      log.error('derived state update failed; catching up from the journal', err);
      try {
        await catchUp(w, this.dataDir, next);
      } catch (again) {
        this.broken = again as Error;
        throw again;
      }
    }
    phases.lap('derive');
    log.debug(`append commit ${commit}: ${fills.length} fills, ${counts.marketSnapshots} market and ${counts.positionSnapshots} position snapshots; ${phases}`);
    return { fills, duplicates, lastSeq: next.lastSeq };
  }

  /** Drops fills already in the journal or repeated within the batch; sorts the rest by time. */
  private async dropDuplicates(w: Writer, incoming: readonly IncomingFill[]) {
    const seen = new Set<string>();
    const unique: IncomingFill[] = [];
    for (const f of incoming) {
      const k = fillKey(f);
      if (!seen.has(k)) {
        seen.add(k);
        unique.push(f);
      }
    }
    let fresh = unique;
    if (unique.length) {
      await stageRows(w.connection, 'batch_keys', unique);
      const dup = new Set((await w.run('derive/existing-keys')).map((r) => r.ord_row as number));
      fresh = unique.filter((_, i) => !dup.has(i));
    }
    return { fresh: [...fresh].sort(byTime), duplicates: incoming.length - fresh.length };
  }

  /**
   * Gives each position snapshot its lifecycle: that of the key's latest fill in this batch at
   * or before the snapshot's time (so a snapshot taken right after a close belongs to the
   * lifecycle that close ended), else the key's lifecycle before this batch. Snapshots of
   * positions the journal has never seen are dropped with a warning.
   */
  private async assignSnapshots(w: Writer, batch: IncomingBatch, fills: readonly Fill[]): Promise<PositionSnapshot[]> {
    const fillsByKey = new Map<string, Fill[]>();
    for (const f of fills) {
      const k = `${f.protocol}|${f.position_key}`;
      const list = fillsByKey.get(k);
      if (list) list.push(f);
      else fillsByKey.set(k, [f]);
    }
    const before = this.lifecycles.draft(); // an empty draft sees the index as it was
    const out: PositionSnapshot[] = [];
    for (const s of batch.positionSnapshots) {
      let id: number | undefined;
      for (const f of fillsByKey.get(`${s.protocol}|${s.position_key}`) ?? []) if (f.time <= s.time) id = f.position_id;
      id ??= await before.lifecycleOfSnapshot(w, s.protocol, s.position_key);
      if (id === undefined) {
        log.warn(`append: dropping a ${s.source} snapshot of unknown position ${s.position_key}`);
        continue;
      }
      out.push({ ...s, position_id: id });
    }
    return out;
  }
}
