import { SourceStatus } from './sources/source-status.ts';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Database } from './db/database.ts';
import type { Writer } from './db/writer.ts';
import { sqlFile } from './db/sql-files.ts';
import { catchUp } from './derive/catch-up.ts';
import { readWatermark } from './derive/apply.ts';
import { deriveVersion } from './derive/version.ts';
import { AppendPath, type AppendOptions, type AppendResult } from './ingest/append.ts';
import type { AppendListener, DerivedChange, DerivedChangeListener } from './ingest/append-events.ts';
import { FillDedup } from './ingest/dedup.ts';
import { LifecycleIndex } from './ingest/lifecycle-index.ts';
import { readCheckpoint } from './journal/checkpoint.ts';
import { recoverJournal } from './journal/commit.ts';
import type { IncomingBatch } from './journal/rows.ts';
import { log } from './lib/log.ts';

export interface ServiceOptions {
  /** journal at <dataDir>/journal, derived DuckDB at <dataDir>/state.duckdb */
  dataDir: string;
  /** epoch-ms clock; tests pin it */
  clock?: () => number;
}

/** The data service without its HTTP face: journal, derived state and the one append path. */
export interface Service {
  readonly dataDir: string;
  readonly db: Database;
  now(): number;
  /** The one append path (see server/ingest/append.ts). */
  append(batch: IncomingBatch, opts?: AppendOptions): Promise<AppendResult>;
  onAppend(listener: AppendListener): () => void;
  /** Has each append hand its listeners the alpha accounts it changed, up to `max` (append.ts). */
  watchAlphaAccounts(max: number): () => void;
  /** Hears of every committed change to derived buckets: each append's, and jobs' (below). */
  onDerivedChange(listener: DerivedChangeListener): () => void;
  /** A job that rewrote derived buckets (e.g. the rollup refresh) says so once committed. */
  derivedChanged(change: DerivedChange): void;
  /** the resume point a source stored with its last committed batch */
  sourceCheckpoint(source: string): unknown;
  lastSeq(): number;
  /** The append path's state for operators (GET /health): its last commit in this process and
   * the error that stopped it, if any. */
  appendState(): { lastCommitAt: number | undefined; failure: Error | undefined };
  /** What the source feeding this service is doing (server/sources/source-status.ts). */
  readonly source: SourceStatus;
  close(): Promise<void>;
}

/** Path of the derived-state database inside a data directory. */
export function statePath(dataDir: string): string {
  return join(dataDir, 'state.duckdb');
}

/**
 * Opens the derived-state database with its schema; if it was built by other derive SQL (or
 * predates versioning but holds data), deletes it so the catch-up rebuilds it from the journal.
 */
async function openDerivedState(dataDir: string): Promise<Database> {
  const path = statePath(dataDir);
  let db = await Database.open(path);
  const stale = await db.write(async (w) => {
    await applySchema(w);
    const [row] = await w.run('ingest/derive-version');
    const mark = await readWatermark(w); // a chunked catch-up cut short may have fills but commit 0
    const hasData = mark.commit > 0 || mark.seq > 0;
    return hasData && row?.value !== deriveVersion();
  });
  if (!stale) return db;
  log.warn(`derived state was built by other derive SQL: rebuilding ${path} from the journal`);
  await db.close();
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
  db = await Database.open(path);
  await db.write(applySchema);
  return db;
}

/** Creates the derived tables and the history read index (if missing) and (re)defines the read-side macros. */
async function applySchema(w: Writer): Promise<void> {
  await w.exec(sqlFile('schema/derived'));
  await w.exec(sqlFile('schema/read-index'));
  await w.exec(sqlFile('schema/read-macros'));
}

/**
 * Opens a data directory: rolls the journal forward past any interrupted commit, opens the
 * derived state and folds in whatever the journal has that it lacks (all of it on a first
 * start or after the state file was deleted), then loads the open lifecycles for the append path.
 */
export async function openService(opts: ServiceOptions): Promise<Service> {
  const { dataDir } = opts;
  mkdirSync(dataDir, { recursive: true });
  await recoverJournal(dataDir);
  const checkpoint = readCheckpoint(dataDir);
  const db = await openDerivedState(dataDir);
  const { lifecycles, dedup } = await db.write(async (w) => {
    const mark = await readWatermark(w);
    if (mark.commit > checkpoint.commit) {
      throw new Error(`derived state (commit ${mark.commit}) is ahead of the journal (commit ${checkpoint.commit}): ` + `it belongs to another journal; delete ${statePath(dataDir)} to rebuild it`);
    }
    await catchUp(w, dataDir, checkpoint);
    await w.run('derive/meta-set', { key: 'derive_version', value: deriveVersion() });
    return {
      lifecycles: await LifecycleIndex.load(w, checkpoint.nextPositionId),
      dedup: await FillDedup.load(w),
    };
  });
  const path = new AppendPath(dataDir, db, checkpoint, lifecycles, dedup);
  const clock = opts.clock ?? Date.now;
  log.debug(`service open on ${dataDir} at seq ${checkpoint.lastSeq}`);
  return {
    dataDir,
    db,
    now: clock,
    append: (batch, opts) => path.append(batch, opts),
    onAppend: (l) => path.onAppend(l),
    watchAlphaAccounts: (max) => path.watchAlphaAccounts(max),
    onDerivedChange: (l) => path.onDerivedChange(l),
    derivedChanged: (change) => path.announce(change),
    sourceCheckpoint: (s) => path.sourceCheckpoint(s),
    lastSeq: () => path.lastSeq,
    appendState: () => ({ lastCommitAt: path.lastCommitAt, failure: path.failure }),
    source: new SourceStatus('none', clock),
    close: () => db.close(),
  };
}
