import type { Writer } from '../db/writer.ts';
import { sqlFile } from '../db/sql-files.ts';
import { log } from '../lib/log.ts';
import { PhaseTimer } from '../lib/phase-timer.ts';
import type { Checkpoint } from '../journal/checkpoint.ts';
import type { JournalKind } from '../journal/rows.ts';
import { dropTempStaging, resetStaging } from '../journal/stage.ts';
import { applyKind, dropBatchTemps, inTransaction, readWatermark, setWatermark, type StagedKind, type Watermark } from './apply.ts';
import { deriveVersion } from './version.ts';
import { markRollupsRefreshed } from './rollup-watermark.ts';
import { DEFERRED_FILL_STEPS, DEFERRED_KEY, foldDeferred } from './deferred-steps.ts';
import { fileList, listJournalFiles, mergeKind, parquetRowCounts, planFillChunks, planSnapshotChunks, type Chunk } from './chunks.ts';

/**
 * Rows per catch-up chunk (fills: seqs; snapshots: about this many rows of whole commits). Memory
 * grows with it (the staged chunk and the steps' hash tables), the per-chunk cost of the steps
 * that scan a whole derived table shrinks with it; see docs/performance.md, "Rebuild", for the measurements.
 */
export const DEFAULT_CHUNK_ROWS = 1_000_000;

export interface CatchUpOptions {
  /** rows per chunk (tests use tiny ones); default {@link DEFAULT_CHUNK_ROWS} or $PERPS_CATCHUP_CHUNK_ROWS */
  chunkRows?: number;
  /** what the log lines call the work ("catch-up", "rebuild") */
  label?: string;
  /**
   * the state was empty when this fold or the one it resumes began (a rebuild's file); a fold that
   * finds the state empty knows it without being told
   */
  fromEmpty?: boolean;
  /** called after each chunk's commit (tests: throw here to cut a catch-up short) */
  afterChunk?: (chunk: Chunk, index: number) => void | Promise<void>;
}

const STAGED: Record<JournalKind, StagedKind> = {
  fills: 'fills',
  market_snapshots: 'marketSnapshots',
  position_snapshots: 'positionSnapshots',
};
const SNAPSHOT_KINDS = ['market_snapshots', 'position_snapshots'] as const;
type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];
const progressKey = (kind: SnapshotKind) => `catchup_${kind}_commit`;
/** The fill steps skipped per chunk: insert-fills is done by the stage (see stageChunk). */
const STAGED_STEPS: ReadonlySet<string> = new Set(['insert-fills']);
/** ...and those a fold from an empty state defers or never needs (deferred-steps.ts). */
const STAGED_AND_DEFERRED_STEPS: ReadonlySet<string> = new Set([...STAGED_STEPS, ...DEFERRED_FILL_STEPS]);

/**
 * What a snapshot costs to fold, in fills (progress and ETA only): measured on the bench journal's
 * rebuild (fills ~190k/s, market snapshots ~680k/s, position snapshots ~1M/s in chunks and
 * ~2.4M/s in a fresh state's one pass).
 */
const MARKET_SNAPSHOT_WORK = 0.28;
const POSITION_SNAPSHOT_WORK = 0.19;
const ONE_PASS_SNAPSHOT_WORK = 0.08;

/** Where a catch-up resumes: fills after `seq`, each snapshot kind after its commit. */
export interface ResumePoint {
  seq: number;
  commit: number;
  snapshots: Record<SnapshotKind, number>;
  /** a rebuild deferred some steps of its fill chunks so far (deferred-steps.ts) */
  deferredPending: boolean;
}

/** Reads the resume point: the watermark, and per snapshot kind the commit an interrupted chunked
 * catch-up had reached (the watermark's commit when none is under way). */
export async function readResumePoint(w: Writer): Promise<ResumePoint> {
  const mark = await readWatermark(w);
  const rows = await w.run('catchup/progress-get');
  const get = (k: SnapshotKind) => Number(rows.find((r) => r.key === progressKey(k))?.value ?? mark.commit);
  return {
    ...mark,
    snapshots: { market_snapshots: get('market_snapshots'), position_snapshots: get('position_snapshots') },
    deferredPending: rows.some((r) => r.key === DEFERRED_KEY && r.value === '1'),
  };
}

/** The chunks that bring the derived state from `at` to `checkpoint`, in fold order: fills by
 * seq, then market snapshots, then position snapshots by commit (the order of the one-batch fold). */
export async function planCatchUp(w: Writer, dataDir: string, checkpoint: Checkpoint, at: ResumePoint, chunkRows: number): Promise<Chunk[]> {
  const chunks = planFillChunks(listJournalFiles(dataDir, 'fills'), at.seq, checkpoint.lastSeq, chunkRows);
  for (const kind of SNAPSHOT_KINDS) {
    const files = listJournalFiles(dataDir, kind).filter((f) => f.last > at.snapshots[kind] && f.first <= checkpoint.commit);
    const rows = await parquetRowCounts(
      w.connection,
      files.map((f) => f.path),
    );
    chunks.push(...planSnapshotChunks(kind, files, rows, at.snapshots[kind], checkpoint.commit, chunkRows));
  }
  return chunks;
}

/**
 * Stages one chunk into its staging table; returns the number of rows staged. Fills go from the
 * files straight into `fills` (the insert-fills step, which the caller then skips) and are staged
 * for the other steps from there: reading the Parquet files once and copying every column once
 * less costs less than staging them and copying the staged rows.
 */
async function stageChunk(w: Writer, chunk: Chunk): Promise<number> {
  if (chunk.files.length === 0) return 0;
  const sql = sqlFile(`journal/stage-${chunk.kind.replace('_', '-')}`).replaceAll('__FILES__', fileList(chunk.files));
  const params = chunk.kind === 'fills' ? { from_seq: chunk.from, to_seq: chunk.to } : {};
  const rows = await w.rows(sql, params);
  if (chunk.kind === 'fills') await w.run('catchup/batch-fills', { from_seq: chunk.from, to_seq: chunk.to });
  return Number(rows[0]?.Count ?? 0);
}

/** Step times of one chunk (its debug line), also added to totals over all chunks. */
class ChunkSteps extends PhaseTimer {
  private prev = performance.now();

  constructor(private readonly totals: Map<string, number>) {
    super();
  }

  override lap(name: string): void {
    super.lap(name);
    const now = performance.now();
    this.totals.set(name, (this.totals.get(name) ?? 0) + now - this.prev);
    this.prev = now;
  }
}

/** The summed step times, slowest first. */
function summary(totals: Map<string, number>): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .map(([n, ms]) => `${n} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/**
 * Brings the derived state up to the journal's checkpoint, in chunks: the fills after the
 * derived seq by seq range, then the snapshot files of later commits by commit range. Each chunk
 * is staged (in temp staging tables, see server/journal/stage.ts) from its own files only,
 * folded by the same derive steps as an append (server/derive/apply.ts) and recorded in one
 * transaction, so memory is bounded by the chunk size and an interrupted catch-up resumes after
 * its last chunk. Any split gives the same tables: every
 * step recomputes or merges what a batch touches from all it has seen (the append path relies on
 * that for its one-commit batches; test/derive/catch-up-chunks.test.ts checks it for chunks). On an empty
 * derived database this *is* the full rebuild. Returns the new watermark.
 */
export async function catchUp(w: Writer, dataDir: string, checkpoint: Checkpoint, opts: CatchUpOptions = {}): Promise<Watermark> {
  try {
    return await foldChunks(w, dataDir, checkpoint, opts);
  } finally {
    await dropTempStaging(w); // the append path's shared staging is visible again
    await dropBatchTemps(w); // a chunk's (up to a million fills') would stay in memory until the next append
  }
}

async function foldChunks(w: Writer, dataDir: string, checkpoint: Checkpoint, opts: CatchUpOptions): Promise<Watermark> {
  const at = await readResumePoint(w);
  if (at.commit >= checkpoint.commit) return at;
  const label = opts.label ?? 'catch-up';
  const chunkRows = Math.max(1, opts.chunkRows ?? Number(process.env.PERPS_CATCHUP_CHUNK_ROWS ?? DEFAULT_CHUNK_ROWS));
  const fresh = at.seq === 0 && at.commit === 0 && SNAPSHOT_KINDS.every((k) => at.snapshots[k] === 0);
  const fromEmpty = fresh || opts.fromEmpty === true;
  const planned = await planCatchUp(w, dataDir, checkpoint, at, chunkRows);
  // From an empty state, position_latest is the newest snapshot per lifecycle over every file:
  // one pass over the files costs about half of staging every row chunk by chunk (docs/performance.md,
  // "Rebuild details"). Memory stays bounded: only the newest rows are kept whole.
  const chunks = fresh ? mergeKind(planned, 'position_snapshots') : planned;
  const total = chunks.reduce((s, c) => s + c.rows, 0);
  // progress and ETA count work, not rows: a snapshot costs a fraction of a fill
  const work = (c: Chunk): number => c.rows * (c.kind === 'fills' ? 1 : c.kind === 'market_snapshots' ? MARKET_SNAPSHOT_WORK : fresh ? ONE_PASS_SNAPSHOT_WORK : POSITION_SNAPSHOT_WORK);
  const totalWork = chunks.reduce((s, c) => s + work(c), 0);
  let doneWork = 0;
  const snaps = SNAPSHOT_KINDS.map((k) => `${k} after commit ${at.snapshots[k]}`).join(', ');
  log.start(
    `${label}: folding in the journal up to commit ${checkpoint.commit} (fills after seq ${at.seq}, ${snaps}): ` +
      `${fmt(total)} rows in ${chunks.length} chunks of ≤ ${fmt(chunkRows)}${fresh ? ' (position snapshots in one pass)' : ''}`,
  );
  // From an empty state, the accounts and rollups are computed once after the last fill chunk
  // instead of in every chunk: the same rows for less (server/derive/deferred-steps.ts).
  let lastFill = -1;
  chunks.forEach((c, i) => {
    if (c.kind === 'fills') lastFill = i;
  });
  const defer = at.deferredPending || (fresh && lastFill > 0);
  if (at.deferredPending && lastFill < 0) await inTransaction(w, () => foldDeferred(w));
  const started = performance.now();
  const totals = new Map<string, number>();
  const mark = { seq: checkpoint.lastSeq, commit: checkpoint.commit };
  for (const [i, chunk] of chunks.entries()) {
    const t0 = performance.now();
    const steps = new ChunkSteps(totals);
    await inTransaction(w, async () => {
      const fills = chunk.kind === 'fills';
      if (fresh && chunk.kind === 'position_snapshots') await foldAllPositionSnapshots(w, chunk, steps);
      else {
        await resetStaging(w, 'temp');
        const staged = await stageChunk(w, chunk);
        steps.lap('stage');
        if (fills && staged !== chunk.rows) log.warn(`${label}: fills ${chunk.from}..${chunk.to}: the journal has ${staged} of ${chunk.rows} seqs`);
        const skip = fills ? (defer ? STAGED_AND_DEFERRED_STEPS : STAGED_STEPS) : undefined;
        if (staged) await applyKind(w, STAGED[chunk.kind], steps, skip);
      }
      if (fills && defer && i === 0 && !at.deferredPending) await w.run('derive/meta-set', { key: DEFERRED_KEY, value: '1' });
      if (defer && i === lastFill) await foldDeferred(w, steps);
      if (fills) await w.run('derive/meta-set', { key: 'derived_seq', value: String(chunk.to) });
      else await w.run('derive/meta-set', { key: progressKey(chunk.kind as SnapshotKind), value: String(chunk.to) });
      // a state cut short before its first full watermark must still say which SQL built it
      if (i === 0 && fresh) await w.run('derive/meta-set', { key: 'derive_version', value: deriveVersion() });
      if (i === chunks.length - 1) await finish(w, mark, fromEmpty);
    });
    steps.lap('commit');
    await opts.afterChunk?.(chunk, i);
    doneWork += work(chunk);
    const now = performance.now();
    const elapsed = (now - started) / 1000;
    const rate = doneWork / elapsed;
    log.info(
      `${label}: ${chunk.kind} ${chunk.from}..${chunk.to} (${fmt(chunk.rows)} rows, ${fmt(chunk.rows / ((now - t0) / 1000))}/s) · ` +
        `chunk ${i + 1}/${chunks.length} · ${((doneWork / totalWork) * 100).toFixed(0)}% · ${elapsed.toFixed(0)} s elapsed · ETA ${((totalWork - doneWork) / rate).toFixed(0)} s`,
    );
    log.debug(`${label}: chunk ${i + 1} steps: ${steps}`);
  }
  if (chunks.length === 0) await inTransaction(w, () => finish(w, mark, fromEmpty));
  const seconds = (performance.now() - started) / 1000;
  log.debug(`${label}: derive steps over all chunks: ${summary(totals)}`);
  log.success(`${label}: derived state caught up to seq ${mark.seq} (commit ${mark.commit}): ${fmt(total)} rows in ${seconds.toFixed(1)} s (${fmt(total / seconds)}/s)`);
  return mark;
}

/**
 * Folds every position snapshot file of a fresh state at once (sql/catchup/position-latest-all.sql
 * and open-position-latest-all.sql): the tables the position-snapshot steps would end with.
 */
async function foldAllPositionSnapshots(w: Writer, chunk: Chunk, steps: ChunkSteps): Promise<void> {
  const files = fileList(chunk.files);
  await w.rows(sqlFile('catchup/position-latest-all').replaceAll('__FILES__', files));
  steps.lap('position-latest (all)');
  await w.run('catchup/open-position-latest-all');
  steps.lap('open-position-latest (all)');
}

/**
 * Records the full watermark and drops the per-kind progress (inside the last chunk's transaction).
 * A fold from an empty state (see {@link CatchUpOptions.fromEmpty}) also tells the rollup refresh its
 * rollups are fresh up to there.
 */
async function finish(w: Writer, mark: Watermark, fromEmpty: boolean): Promise<void> {
  await setWatermark(w, mark);
  await w.run('catchup/progress-clear');
  if (fromEmpty) await markRollupsRefreshed(w, mark);
}
