import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from '../server/db/sql-files.ts';
import { readWatermark } from '../server/derive/apply.ts';
import { fsyncPathAsync } from '../server/fs-atomic.ts';
import { readCheckpoint } from '../server/journal/checkpoint.ts';
import { fileName, journalDir } from '../server/journal/layout.ts';
import type { JournalKind } from '../server/journal/rows.ts';
import { log } from '../server/log.ts';
import type { Service } from '../server/service.ts';
import { applyCompactionIntent, compactionIntentPath, writeCompactionIntent, type SwapStep } from './compaction-intent.ts';
import { dataPartitions, utcDay, withFiles, type Partition } from './journal-files.ts';

/** Steps after which a test can make compaction fail, to check recovery. */
export type CompactionFailpoint = 'copied' | 'intent' | SwapStep;

export interface CompactionOptions {
  /** partitions of days before this one (YYYY-MM-DD) are closed; default: today (UTC) by the service clock */
  before?: string;
  /** throw right after this step (crash tests) */
  failAt?: CompactionFailpoint;
  /** called after a partition's copy, before the swap (tests: an append racing the copy) */
  onCopied?: (partition: Partition) => Promise<void>;
}

export interface CompactionResult {
  partitions: number;
  filesBefore: number;
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
 * per lifecycle per day is kept (data.md).
 *
 * Per partition: the rows are copied into a `.tmp-` file outside the writer lock (appends go on),
 * fsynced; then, under the writer lock, the partition is listed again (a late append to a closed
 * day makes the copy stale: it is dropped and the partition retried next run), a redo intent is
 * written, the file renamed into place, the old files deleted, the intent deleted. A crash
 * before the intent leaves a temp file that start-up sweeps; after it, start-up rolls the swap
 * forward (see compaction-intent.ts, called from `recoverJournal`).
 */
export async function compactJournal(service: Service, opts: CompactionOptions = {}): Promise<CompactionResult> {
  const before = opts.before ?? utcDay(service.now());
  const result: CompactionResult = { partitions: 0, filesBefore: 0, pollsDropped: 0, skipped: 0 };
  const conn = await service.db.instance.connect();
  try {
    for (const kind of KINDS) {
      for (const part of dataPartitions(service.dataDir, kind)) {
        if (part.day >= before || part.files.length < 2) continue;
        const done = await compactPartition(service, conn, part, opts);
        if (done === undefined) {
          result.skipped++;
          continue;
        }
        result.partitions++;
        result.filesBefore += part.files.length;
        result.pollsDropped += done.dropped;
      }
    }
  } finally {
    conn.closeSync();
  }
  if (result.partitions) {
    log.info(`compaction: ${result.filesBefore} files of ${result.partitions} closed partitions compacted; ${result.pollsDropped} old poll snapshots dropped`);
  }
  return result;
}

function fail(at: CompactionFailpoint | undefined, step: CompactionFailpoint): void {
  if (at === step) throw new Error(`compaction: failpoint ${step}`);
}

/** Compacts one partition; undefined when it changed under the copy (left as it is). */
async function compactPartition(service: Service, conn: DuckDBConnection, part: Partition, opts: CompactionOptions) {
  const { failAt } = opts;
  const { dataDir } = service;
  const paths = part.files.map((f) => f.path);
  const first = Math.min(...part.files.map((f) => f.first));
  const last = Math.max(...part.files.map((f) => f.last));
  const final = join(part.dir, fileName(first, last));
  const tmp = join(journalDir(dataDir), `.tmp-compact-${part.kind}-${part.protocol}-${part.day}.parquet`);
  rmSync(tmp, { force: true });
  const copy = withFiles(sqlFile(`jobs/compact-${part.kind.replaceAll('_', '-')}`), paths).replaceAll('__TARGET__', quote(tmp));
  await conn.run(copy);
  await fsyncPathAsync(tmp); // a day's partition, up to hundreds of MB: off the event loop
  const rowsBefore = await countRows(conn, paths);
  const rowsAfter = await countRows(conn, [tmp]);
  if (part.kind !== 'position_snapshots' && rowsAfter !== rowsBefore) {
    rmSync(tmp, { force: true });
    throw new Error(`compaction: ${part.dir}: ${rowsAfter} rows written for ${rowsBefore}`);
  }
  fail(failAt, 'copied');
  await opts.onCopied?.(part);

  return service.db.write(async (w) => {
    const now = dataPartitions(dataDir, part.kind).find((p) => p.protocol === part.protocol && p.day === part.day);
    const unchanged = now !== undefined && now.files.map((f) => f.path).join('\n') === paths.join('\n');
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
    writeCompactionIntent(intentPath, { tmp, final, remove: paths });
    fail(failAt, 'intent');
    applyCompactionIntent(intentPath, (step) => fail(failAt, step));
    return { dropped: rowsBefore - rowsAfter };
  });
}
