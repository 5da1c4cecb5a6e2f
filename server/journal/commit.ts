import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { rename, rm, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { recoverCompactions } from '../../jobs/compaction-intent.ts';
import { log } from '../lib/log.ts';
import { checkpointPath, readCheckpoint, writeCheckpointAsync, type Checkpoint } from './checkpoint.ts';
import { fsyncPathAsync, writeFileAtomicAsync, writeTempFileAsync } from '../lib/fs-atomic.ts';
import { fileName, journalDir, partitionDir } from './layout.ts';
import { COLUMNS_OF, type JournalKind, type Protocol } from './rows.ts';

/** A redo record: once it is on disk, the commit it describes will complete, even after a crash. */
interface Intent {
  commit: number;
  renames: [tmp: string, final: string][];
  checkpoint: Checkpoint;
}

/** The append path's shared staging tables (server/journal/stage.ts), by qualified name: the
 * commit runs on the journal connection, which has no search path to them. */
const STAGING_OF: Record<JournalKind, string> = {
  fills: 'stage.main.batch_fills',
  market_snapshots: 'stage.main.batch_msnap',
  position_snapshots: 'stage.main.batch_psnap',
};

/**
 * Kinds written without Parquet dictionaries. Market snapshots are mostly high-entropy doubles
 * (prices, rates, cumulative factors): trying a dictionary per column chunk and giving it up cost
 * a third of their COPY's CPU (491k rows: 0.91 → 0.62 CPU-s, file size +5 %), the largest part of a
 * backfill from May 2026 on. Fills and position snapshots showed no gain, and keep them.
 */
const NO_DICTIONARY: Record<JournalKind, boolean> = { fills: false, market_snapshots: true, position_snapshots: false };

/** Quotes a string as a SQL literal. Only for file paths and our own validated values: COPY's
 * target cannot be a bound parameter. */
function literal(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** Partitions (protocol, day) present in a staged kind, with the seq range for fills. */
async function partitionsOf(conn: DuckDBConnection, kind: JournalKind) {
  const range = kind === 'fills' ? 'min(seq)::BIGINT, max(seq)::BIGINT' : '0::BIGINT, 0::BIGINT';
  const reader = await conn.runAndReadAll(`SELECT protocol, strftime(time::DATE, '%Y-%m-%d') AS day, ${range} FROM ${STAGING_OF[kind]} GROUP BY protocol, time::DATE`);
  return reader.getRows().map(([p, d, first, last]) => ({
    protocol: p as Protocol,
    day: d as string,
    first: Number(first),
    last: Number(last),
  }));
}

/**
 * Writes the staged batch (already given seqs and position ids, in the shared staging tables)
 * into the journal as one atomic commit, on `conn` (the writer's journal connection). Per kind, one partitioned DuckDB COPY writes every (protocol, day) file of the batch
 * into a temp directory; each file is fsynced; a redo intent listing the renames is written;
 * the files are renamed into their partitions and the checkpoint advanced; the intent is
 * removed. A crash before the intent leaves only the temp directory (swept at start-up: the
 * batch is simply not in the journal); a crash after it is rolled forward by
 * {@link recoverJournal}. Returns the paths of the files written.
 */
export async function commitBatch(conn: DuckDBConnection, dataDir: string, checkpoint: Checkpoint): Promise<string[]> {
  const commit = checkpoint.commit;
  const tmpRoot = join(journalDir(dataDir), `.tmp-commit-${commit}`);
  let prepared: Prepared;
  try {
    prepared = await prepareCommit(conn, dataDir, checkpoint, tmpRoot);
  } catch (err) {
    // nothing was renamed into place and the checkpoint is untouched: the commit fails whole, and
    // its temp tree goes now (a full disk must not keep hundreds of files of a failed batch)
    await rm(tmpRoot, { recursive: true, force: true }).catch(() => undefined);
    throw err;
  }
  const { renames, intent, intentPath, checkpointTmp } = prepared;
  try {
    await completeIntent(dataDir, intent, intentPath, checkpointTmp);
  } catch (err) {
    throw new CommitIncompleteError(commit, err as Error);
  }
  // hundreds of empty partition directories: removed in the background (start-up sweeps any
  // leftover `.tmp-` directory, so a crash meanwhile leaves nothing behind)
  cleanup = cleanup.then(() => rm(tmpRoot, { recursive: true, force: true })).catch(() => undefined);
  return renames.map(([, final]) => final);
}

/**
 * A commit whose redo intent is on disk but whose renames or checkpoint could not be completed
 * (only renames are left by then, so this is not a full disk): the journal must be rolled forward
 * by start-up recovery before anything else is appended.
 */
export class CommitIncompleteError extends Error {
  override name = 'CommitIncompleteError';
  constructor(commit: number, cause: Error) {
    super(`journal commit ${commit} was written but not completed (${cause.message}); restart to roll it forward`, { cause });
  }
}

interface Prepared {
  renames: [string, string][];
  intent: Intent;
  intentPath: string;
  checkpointTmp: string;
}

/**
 * Every byte of a commit, written before its intent: the Parquet files in the temp tree, the
 * partition directories, the new checkpoint under a temp name, then the intent. A full disk can
 * only fail one of these, before the intent exists; after it, completing the commit is renames.
 */
async function prepareCommit(conn: DuckDBConnection, dataDir: string, checkpoint: Checkpoint, tmpRoot: string): Promise<Prepared> {
  const commit = checkpoint.commit;
  rmSync(tmpRoot, { recursive: true, force: true });
  mkdirSync(tmpRoot, { recursive: true });
  const renames: [string, string][] = [];
  for (const kind of Object.keys(STAGING_OF) as JournalKind[]) {
    const parts = await partitionsOf(conn, kind);
    if (parts.length === 0) continue;
    const cols = COLUMNS_OF[kind].map(([n]) => `"${n}"`).join(', ');
    const order = kind === 'fills' ? 'seq' : 'ord_row';
    const tmpDir = join(tmpRoot, kind);
    await conn.run(
      `COPY (SELECT ${cols}, time::DATE AS day ` +
        `FROM ${STAGING_OF[kind]} ORDER BY ${order}) TO ${literal(tmpDir)} ` +
        `(FORMAT parquet, COMPRESSION snappy, PARTITION_BY (protocol, day), FILENAME_PATTERN 'part_{i}'${NO_DICTIONARY[kind] ? ', DICTIONARY_SIZE_LIMIT 1' : ''})`,
    );
    for (const part of parts) {
      const dir = join(tmpDir, `protocol=${part.protocol}`, `day=${part.day}`);
      const files = readdirSync(dir);
      if (files.length !== 1) throw new Error(`journal: expected one file in ${dir}, found ${files.length}`);
      const tmp = join(dir, files[0] as string);
      const finalDir = partitionDir(dataDir, kind, part.protocol, part.day);
      mkdirSync(finalDir, { recursive: true });
      renames.push([tmp, join(finalDir, kind === 'fills' ? fileName(part.first, part.last) : fileName(commit, commit))]);
    }
  }
  // a batch writes hundreds of small files: flush them all at once (libuv's pool), not one by one
  await fsyncAll(renames.map(([tmp]) => tmp));
  const intentPath = join(journalDir(dataDir), `commit-${commit}.intent.json`);
  mkdirSync(journalDir(dataDir), { recursive: true });
  const intent: Intent = { commit, renames, checkpoint };
  // the checkpoint and the intent are written and fsynced off the event loop: requests go on
  // being answered during a commit (see writeFileAtomicAsync)
  const checkpointTmp = await writeTempFileAsync(checkpointPath(dataDir), JSON.stringify(checkpoint, null, 2));
  try {
    await writeFileAtomicAsync(intentPath, JSON.stringify(intent));
  } catch (err) {
    await unlink(checkpointTmp).catch(() => undefined);
    throw err;
  }
  return { renames, intent, intentPath, checkpointTmp };
}

/** fsyncs files or directories, a few at a time (bounded open descriptors). */
async function fsyncAll(paths: readonly string[], concurrency = 16): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < paths.length) await fsyncPathAsync(paths[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, paths.length) }, lane));
}

/** Renames what is still under a temp name; returns the directories to fsync. */
function renameAll(intent: Intent): string[] {
  const dirs = new Set<string>();
  for (const [tmp, final] of intent.renames) {
    if (existsSync(tmp)) renameSync(tmp, final);
    dirs.add(dirname(final));
  }
  return [...dirs];
}

/** The background removal of committed temp trees (one at a time). */
let cleanup: Promise<void> = Promise.resolve();

/**
 * Completes a written intent, of the commit under way or of one a crash interrupted: renames what
 * is still under a temp name, fsyncs the directories, advances the checkpoint, removes the intent.
 * Each step checks what is already done. The emptied temp tree is the caller's to remove.
 */
async function completeIntent(dataDir: string, intent: Intent, intentPath: string, checkpointTmp?: string): Promise<void> {
  await fsyncAll(renameAll(intent));
  if (readCheckpoint(dataDir).commit < intent.commit) {
    if (checkpointTmp) {
      // written before the intent: only a rename is left, which needs no free space
      await rename(checkpointTmp, checkpointPath(dataDir));
      await fsyncPathAsync(dirname(checkpointPath(dataDir)));
    } else await writeCheckpointAsync(dataDir, intent.checkpoint);
  } else if (checkpointTmp) await unlink(checkpointTmp).catch(() => undefined);
  await unlink(intentPath);
}

/**
 * Start-up recovery: rolls forward every commit whose intent was written, then deletes temp
 * directories (and temp files) of commits that never reached their intent. Afterwards the journal on disk is exactly
 * the committed batches and `checkpoint.json` describes the last one.
 */
export async function recoverJournal(dataDir: string): Promise<void> {
  const root = journalDir(dataDir);
  if (!existsSync(root)) return;
  const intents = readdirSync(root)
    .filter((f) => /^commit-\d+\.intent\.json$/.test(f))
    .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]));
  for (const f of intents) {
    log.warn(`journal: completing interrupted commit ${f}`);
    const intentPath = join(root, f);
    await completeIntent(dataDir, JSON.parse(readFileSync(intentPath, 'utf8')) as Intent, intentPath); // its temp tree: swept below
  }
  await recoverCompactions(dataDir); // jobs/compaction.ts: roll interrupted compactions forward
  for (const entry of readdirSync(root)) {
    if (entry.startsWith('.tmp-')) {
      log.warn(`journal: removing uncommitted ${join(root, entry)}`);
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
}
