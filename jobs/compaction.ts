import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../server/db/sql-files.ts';
import { readWatermark } from '../server/derive/apply.ts';
import { fsyncPathAsync } from '../server/lib/fs-atomic.ts';
import { readCheckpoint } from '../server/journal/checkpoint.ts';
import { fileName, journalDir } from '../server/journal/layout.ts';
import type { JournalKind } from '../server/journal/rows.ts';
import { log } from '../server/lib/log.ts';
import type { Service } from '../server/service.ts';
import { applyCompactionIntent, compactionIntentPath, writeCompactionIntent, type SwapStep } from './compaction-intent.ts';
import { dataPartitions, dataPartitionsAsync, utcDay, withFiles, type JournalFile, type Partition } from './journal-files.ts';

/** Steps after which a test can make compaction fail, to check recovery. */
export type CompactionFailpoint = 'copied' | 'intent' | SwapStep;

export interface CompactionOptions {
  /** partitions of days before this one (YYYY-MM-DD) are closed; default: today (UTC) by the service clock */
  before?: string;
  /** throw right after this step (crash tests) */
  failAt?: CompactionFailpoint;
  /** called after a partition's copy, before the swap (tests: an append racing the copy) */
  onCopied?: (partition: Partition) => Promise<void>;
  /** an open partition's run of small files is merged once it has this many (default OPEN_RUN_MIN_FILES) */
  openRunMinFiles?: number;
  /** files of at least this size end an open partition's run (default OPEN_RUN_FROZEN_BYTES) */
  openRunFrozenBytes?: number;
}

/**
 * A partition of today (or later) is still appended to: one file per append, i.e. one a second
 * for a live source, and each file read costs ~0.7 ms whatever its size (5,064 one-append files of
 * fills read in 3.4 s, the same rows from one file in 0.14 s). Its newest files are therefore merged
 * once this many have gathered.
 */
export const OPEN_RUN_MIN_FILES = 32;
/**
 * ... but not a file this large: a merged run is rewritten with the files appended after it until
 * it has grown this far, then left alone, so a run rewrites at most this much however long the
 * day (the closed day's compaction merges everything into one file anyway).
 */
export const OPEN_RUN_FROZEN_BYTES = 16 * 1024 * 1024;

export interface CompactionResult {
  /** closed partitions compacted into one file each */
  partitions: number;
  filesBefore: number;
  /** open partitions whose run of small files was merged into one */
  merged: number;
  mergedFiles: number;
  /** rows dropped by poll retention */
  pollsDropped: number;
  /** partitions skipped because an append changed them during the copy (retried next run) */
  skipped: number;
}

const KINDS: JournalKind[] = ['fills', 'market_snapshots', 'position_snapshots'];

const quote = (s: string): string => `'${s.replaceAll("'", "''")}'`;

async function countRows(conn: DuckDBConnection, paths: readonly string[]): Promise<number> {
  const reader = await conn.runAndReadAll(withFiles(sqlFile('jobs/count-rows'), paths));
  return Number(reader.getRows()[0]?.[0] ?? 0);
}

/**
 * Journal compaction of closed days: every (kind, protocol, day) partition of a day before today
 * (UTC) with more than one file becomes one zstd Parquet file holding the same rows in the same
 * order (seq for fills, journal order for snapshots), named like any journal file (the seq or
 * commit range it covers). Position snapshots lose their old `poll` rows on the way: the last poll
 * per lifecycle per day is kept (data.md). Partitions of today are still appended to: their
 * newest small files are merged into one as they are (see openRun), polls and all.
 *
 * Per partition: the rows are copied into a `.tmp-` file outside the writer lock (appends go on),
 * fsynced; then, under the writer lock, the partition is listed again (a late append to a closed
 * day makes the copy stale: it is dropped and the partition retried next run; an open one may
 * only have gained files after the merged ones), a redo intent is
 * written, the file renamed into place, the old files deleted, the intent deleted. A crash
 * before the intent leaves a temp file that start-up sweeps; after it, start-up rolls the swap
 * forward (see compaction-intent.ts, called from `recoverJournal`).
 */
export async function compactJournal(service: Service, opts: CompactionOptions = {}): Promise<CompactionResult> {
  const before = opts.before ?? utcDay(service.now());
  const result: CompactionResult = { partitions: 0, filesBefore: 0, merged: 0, mergedFiles: 0, pollsDropped: 0, skipped: 0 };
  const conn = await service.db.instance.connect();
  try {
    for (const kind of KINDS) {
      for (const part of await dataPartitionsAsync(service.dataDir, kind)) {
        const closed = part.day < before;
        const files = closed ? part.files : openRun(part, opts);
        if (files.length < 2) continue;
        const done = await compactPartition(service, conn, part, files, closed, opts);
        if (done === undefined) {
          result.skipped++;
        } else if (closed) {
          result.partitions++;
          result.filesBefore += files.length;
          result.pollsDropped += done.dropped;
        } else {
          result.merged++;
          result.mergedFiles += files.length;
        }
      }
    }
  } finally {
    conn.closeSync();
  }
  if (result.partitions) {
    log.info(`compaction: ${result.filesBefore} files of ${result.partitions} closed partitions compacted; ${result.pollsDropped} old poll snapshots dropped`);
  }
  if (result.merged) log.info(`compaction: ${result.mergedFiles} files of ${result.merged} open partitions merged`);
  return result;
}

/**
 * The files of an open partition to merge: those after its last file of OPEN_RUN_FROZEN_BYTES or
 * more (a contiguous run, so the merged file's seq or commit range overlaps no other file's), or
 * none while they are fewer than OPEN_RUN_MIN_FILES.
 */
function openRun(part: Partition, opts: CompactionOptions): JournalFile[] {
  const frozen = opts.openRunFrozenBytes ?? OPEN_RUN_FROZEN_BYTES;
  let start = part.files.length;
  while (start > 0 && statSync(part.files[start - 1]!.path).size < frozen) start--;
  const run = part.files.slice(start);
  return run.length >= (opts.openRunMinFiles ?? OPEN_RUN_MIN_FILES) ? run : [];
}

function fail(at: CompactionFailpoint | undefined, step: CompactionFailpoint): void {
  if (at === step) throw new Error(`compaction: failpoint ${step}`);
}

/**
 * Compacts `files` of one partition (all of a closed one, the run of an open one) into one file;
 * undefined when the partition changed under the copy (left as it is).
 */
async function compactPartition(service: Service, conn: DuckDBConnection, part: Partition, files: JournalFile[], closed: boolean, opts: CompactionOptions) {
  const { failAt } = opts;
  const { dataDir } = service;
  const paths = files.map((f) => f.path);
  const first = files[0]!.first;
  const last = files.at(-1)!.last;
  const final = join(part.dir, fileName(first, last));
  const tmp = join(journalDir(dataDir), `.tmp-compact-${part.kind}-${part.protocol}-${part.day}.parquet`);
  rmSync(tmp, { force: true });
  // poll retention needs the whole day: an open partition's position snapshots are merged as they are
  const query = !closed && part.kind === 'position_snapshots' ? 'merge-position-snapshots' : `compact-${part.kind.replaceAll('_', '-')}`;
  const copy = withFiles(sqlFile(`jobs/${query}`), paths).replaceAll('__TARGET__', quote(tmp));
  await conn.run(copy);
  await fsyncPathAsync(tmp); // a day's partition, up to hundreds of MB: off the event loop
  const rowsBefore = await countRows(conn, paths);
  const rowsAfter = await countRows(conn, [tmp]);
  if ((!closed || part.kind !== 'position_snapshots') && rowsAfter !== rowsBefore) {
    rmSync(tmp, { force: true });
    throw new Error(`compaction: ${part.dir}: ${rowsAfter} rows written for ${rowsBefore}`);
  }
  fail(failAt, 'copied');
  await opts.onCopied?.(part);

  return service.db.write(async (w) => {
    const now = dataPartitions(dataDir, part.kind, new Set([part.day])).find((p) => p.protocol === part.protocol);
    // a closed partition must be as it was; an open one may have new files after the run
    const listed = (now?.files ?? []).filter((f) => closed || (f.last >= first && f.first <= last)).map((f) => f.path);
    const unchanged = listed.join('\n') === paths.join('\n');
    // the snapshot catch-up stages files by their last commit: a file must never straddle the
    // derived state's watermark, so compact only while the derived state is at the journal's
    const mark = await readWatermark(w);
    if (!unchanged || mark.commit !== readCheckpoint(dataDir).commit) {
      rmSync(tmp, { force: true });
      log.debug(`compaction: ${part.dir} changed during the copy; retrying next run`);
      return undefined;
    }
    // ... and on disk too: the derived state keeps no WAL (server/db/database.ts), so after a
    // crash it is the last checkpoint's, which must not be behind the commits this file merges
    await w.checkpoint();
    const intentPath = compactionIntentPath(dataDir, part.kind, part.protocol, part.day);
    await writeCompactionIntent(intentPath, { tmp, final, remove: paths });
    fail(failAt, 'intent');
    await applyCompactionIntent(intentPath, (step) => fail(failAt, step));
    return { dropped: rowsBefore - rowsAfter };
  });
}
