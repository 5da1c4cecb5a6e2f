import type { Database, Row } from '../db/database.ts';
import type { Writer } from '../db/writer.ts';
import { sqlFile } from '../db/sql-files.ts';
import { applyStaged, type StagedCounts } from '../derive/apply.ts';
import { catchUp } from '../derive/catch-up.ts';
import type { Checkpoint } from '../journal/checkpoint.ts';
import { CommitIncompleteError, commitBatch } from '../journal/commit.ts';
import type { Fill, IncomingBatch } from '../journal/rows.ts';
import { resetStaging, stageBlock, stageRows } from '../journal/stage.ts';
import { log } from '../lib/log.ts';
import { PhaseTimer } from '../lib/phase-timer.ts';
import { PhaseCpu } from './phase-cpu.ts';
import { changeOf, type AppendListener, type DerivedChange, type DerivedChangeListener } from './append-events.ts';
import { stageKept } from './stage-kept.ts';
import { assignSnapshots } from './assign-snapshots.ts';
import { dropSnapshotsOfDuplicateFills, FillDedup } from './dedup.ts';
import { mayHaveSameInstantTies } from './snapshot-ties.ts';
import type { LifecycleIndex } from './lifecycle-index.ts';
import { validateBatch } from './validate.ts';

export interface AppendResult {
  /** the fills that were new, with their seq and position_id, in journal order */
  fills: Fill[];
  /** fills dropped because the journal already had their (protocol, tx, event_index) */
  duplicates: number;
  lastSeq: number;
}

export interface AppendOptions {
  /** names the checkpoint slot of the batch's `checkpoint` (default `default`) */
  source?: string;
}

/**
 * The one append path every source goes through: validate, drop duplicates, assign `seq` and
 * `position_id`, commit the journal files atomically, fold the batch into the derived state,
 * then tell listeners (the stream). Appends are serialized on the database's writer. The rows
 * of a batch are owned by the append path from then on: `seq` and `position_id` are set on them.
 */
export class AppendPath {
  private readonly listeners = new Set<AppendListener>();
  /** each watcher's most changed alpha accounts it wants handed over */
  private readonly accountWatchers = new Set<{ max: number }>();
  /** the alpha accounts the append in progress changed, when read (see {@link readAlphaAccounts}) */
  private changedAccounts: Row[] | undefined;
  private readonly changeListeners = new Set<DerivedChangeListener>();
  private broken: Error | undefined;
  private committedAt: number | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly db: Database,
    private checkpoint: Checkpoint,
    private readonly lifecycles: LifecycleIndex,
    private readonly dedup: FillDedup,
  ) {}

  get lastSeq(): number {
    return this.checkpoint.lastSeq;
  }

  /** The error that stopped the append path (it then refuses every append), if one did. */
  get failure(): Error | undefined {
    return this.broken;
  }

  /** When an append last committed in this process (wall clock, epoch ms), if one did. */
  get lastCommitAt(): number | undefined {
    return this.committedAt;
  }

  /** The resume point a source stored with its last committed batch. */
  sourceCheckpoint(source: string): unknown {
    return this.checkpoint.sources[source];
  }

  onAppend(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks for the alpha accounts each append changes (up to `max` of them) to be handed to the append
   * listeners, read from the batch's own staged accounts inside the append:
   * `GET /v1/alpha/accounts/search`'s snapshot then needs no query of every account after each live
   * append. Returns the undo.
   */
  watchAlphaAccounts(max: number): () => void {
    const watcher = { max };
    this.accountWatchers.add(watcher);
    return () => void this.accountWatchers.delete(watcher);
  }

  /** Listens to changes of derived buckets: each append's, and those {@link announce}d. */
  onDerivedChange(listener: DerivedChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Tells the derived-change listeners of a committed `change` to derived buckets. */
  announce(change: DerivedChange): void {
    for (const listener of this.changeListeners) {
      try {
        listener(change);
      } catch (err) {
        log.error('derived-change listener failed', err);
      }
    }
  }

  append(batch: IncomingBatch, opts: AppendOptions = {}): Promise<AppendResult> {
    validateBatch(batch);
    return this.db.write(async (w) => {
      if (this.broken) throw new Error(`append path stopped after an earlier failure: ${this.broken.message}`);
      this.changedAccounts = undefined;
      const result = await this.appendLocked(w, batch, opts);
      const alphaAccounts = this.changedAccounts;
      this.changedAccounts = undefined;
      // committed: derived-change listeners first, so that whoever hears of the fills next finds
      // every in-memory copy of derived buckets already marked out of date
      const change = changeOf(result.fills, batch);
      if (change) this.announce(change);
      for (const listener of this.listeners) {
        try {
          listener(result.fills, alphaAccounts, change);
        } catch (err) {
          log.error('append listener failed', err);
        }
      }
      return result;
    });
  }

  private async appendLocked(w: Writer, batch: IncomingBatch, opts: AppendOptions): Promise<AppendResult> {
    const phases = new PhaseCpu();
    await resetStaging(w);
    phases.lap('reset');
    const { fresh, duplicates } = await this.dedup.filter(w, batch.fills);
    phases.lap('dedup');

    const draft = this.lifecycles.draft();
    let seq = this.checkpoint.lastSeq;
    const fills = fresh as Fill[];
    for (const f of fills) {
      f.seq = ++seq;
      f.position_id = draft.assign(f);
    }
    const incomingSnapshots = dropSnapshotsOfDuplicateFills(batch.positionSnapshots, batch.fills, fills);
    const positionSnapshots = await assignSnapshots(w, incomingSnapshots, fills, this.lifecycles.draft());
    phases.lap('assign');
    const marketSnapshots = batch.marketSnapshots.length + (batch.marketSnapshotColumns?.length ?? 0);
    if (fills.length === 0 && marketSnapshots === 0 && positionSnapshots.length === 0 && batch.checkpoint === undefined) {
      return { fills, duplicates, lastSeq: this.checkpoint.lastSeq };
    }

    const commit = this.checkpoint.commit + 1;
    await stageKept(w, 'batch_fills', fills, batch.fills, batch.mirrors?.fills, commit);
    phases.lap('stage-fills');
    await stageRows(w.connection, 'batch_msnap', batch.marketSnapshots, commit);
    if (batch.marketSnapshotColumns) await stageBlock(w.connection, 'batch_msnap', batch.marketSnapshotColumns, commit);
    phases.lap('stage-msnap');
    await stageKept(w, 'batch_psnap', positionSnapshots, batch.positionSnapshots, batch.mirrors?.positionSnapshots, commit);
    phases.lap('stage-psnap');
    // snapshots have no natural key: a resuming source re-emits its last ones, which go here
    await w.run('ingest/drop-stale-market-snapshots');
    if (mayHaveSameInstantTies(batch)) await w.run('ingest/collapse-same-instant-market-snapshots');
    await w.run('ingest/drop-stale-position-snapshots');
    await w.run('ingest/collapse-same-instant-position-snapshots');
    const [staged] = await w.run('ingest/staged-counts');
    const counts = { fills: fills.length, marketSnapshots: staged!.market as number, positionSnapshots: staged!.position as number };
    phases.lap('stage-drop');

    const source = opts.source ?? 'default';
    const next: Checkpoint = {
      commit,
      lastSeq: seq,
      nextPositionId: draft.nextId,
      sources: batch.checkpoint === undefined ? this.checkpoint.sources : { ...this.checkpoint.sources, [source]: batch.checkpoint },
    };
    // The journal commit (Parquet COPY, fsync, renames) runs on the journal connection while the
    // writer derives from the same staged rows: the two took about the same time one after the
    // other, each using ~1.3 of the 2 cores. The derive transaction commits only once the
    // journal is durable, so the derived state is never ahead of the journal.
    const journal = commitBatch(w.journal, this.dataDir, next).then(() => {
      this.checkpoint = next; // durable from here on
      this.lifecycles.merge(draft);
      this.dedup.committed(fills);
    });
    journal.catch(() => undefined); // awaited in derive()
    await this.derive(w, counts, next, journal);
    this.committedAt = Date.now();
    phases.lap('journal+derive');
    log.debug(`append commit ${commit}: ${fills.length} fills, ${counts.marketSnapshots} market and ${counts.positionSnapshots} position snapshots; ${phases}`);
    return { fills, duplicates, lastSeq: next.lastSeq };
  }

  /**
   * Reads the alpha accounts the committed batch changed from its staged accounts (the derive's
   * batch_accounts, as committed), when a watcher wants them and they are at most as many as it
   * wants. A failure only costs the watchers their own read.
   */
  private async readAlphaAccounts(w: Writer): Promise<void> {
    const wanted = Math.max(0, ...[...this.accountWatchers].map((x) => x.max));
    if (wanted === 0) return;
    try {
      // literal SQL, not a cached statement: batch_accounts is a new table every batch
      const rows = await w.rows(sqlFile('ingest/alpha-accounts-changed'), { limit: wanted + 1 });
      if (rows.length <= wanted) this.changedAccounts = rows;
    } catch (err) {
      log.warn(`append: the changed accounts were not read (${(err as Error).message}); their readers query them`);
    }
  }

  /**
   * Folds the staged batch into the derived state in one transaction, committed after `journal`
   * (the batch's journal commit, running meanwhile) succeeded; rolled back if it failed, and the
   * append fails with nothing written. When the derive fails but the journal has the batch, the
   * derived state catches up from the files, or the append path stops taking appends (dedup
   * would otherwise miss this batch).
   */
  private async derive(w: Writer, counts: StagedCounts, mark: Checkpoint, journal: Promise<void>): Promise<void> {
    const steps = new PhaseTimer();
    let failure: unknown;
    try {
      await w.exec('BEGIN TRANSACTION');
      await applyStaged(w, counts, { seq: mark.lastSeq, commit: mark.commit }, steps);
    } catch (err) {
      failure = err;
    }
    try {
      await journal;
    } catch (err) {
      await w.exec('ROLLBACK').catch(() => undefined);
      // half a commit on disk (its intent written): only start-up recovery may go on from here
      if (err instanceof CommitIncompleteError) this.broken = err;
      throw err;
    }
    steps.lap('journal wait');
    if (failure === undefined) {
      try {
        await w.exec('COMMIT');
        steps.lap('commit');
        if (counts.fills) await this.readAlphaAccounts(w);
        log.debug(`append commit ${mark.commit} derive steps: ${steps}`);
        return;
      } catch (err) {
        failure = err;
      }
    }
    await w.exec('ROLLBACK').catch(() => undefined); // a failed COMMIT may have ended it already
    log.error('derived state update failed; catching up from the journal', failure);
    try {
      await catchUp(w, this.dataDir, this.checkpoint);
    } catch (again) {
      this.broken = again as Error;
      throw again;
    }
  }
}
