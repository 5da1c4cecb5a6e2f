import { existsSync, renameSync, rmSync } from 'node:fs';
import { Database } from '../db/database.ts';
import { sqlFile } from '../db/sql-files.ts';
import { log } from '../lib/log.ts';
import { readCheckpoint, type Checkpoint } from '../journal/checkpoint.ts';
import { recoverJournal } from '../journal/commit.ts';
import { statePath } from '../service.ts';
import { catchUp, readResumePoint, type CatchUpOptions } from './catch-up.ts';
import { listJournalFiles } from './chunks.ts';
import { deriveVersion } from './version.ts';

function removeDb(path: string): void {
  rmSync(path, { force: true });
  rmSync(`${path}.wal`, { force: true });
}

/**
 * Whether a half-built `<target>.rebuild` left by an interrupted rebuild can be finished: it was
 * built by the current derive SQL, is not ahead of the journal, and no snapshot file straddles
 * where it stopped (compaction merged files since: their rows carry no commit of their own, so
 * the rest could not be told apart). Anything else — including a file DuckDB cannot open — is
 * thrown away and rebuilt from scratch.
 */
async function canResume(tmp: string, dataDir: string, checkpoint: Checkpoint): Promise<boolean> {
  if (!existsSync(tmp)) return false;
  let db: Database | undefined;
  try {
    db = await Database.open(tmp, { readers: 0 });
    return await db.write(async (w) => {
      const [version] = await w.run('ingest/derive-version');
      if (version?.value !== deriveVersion()) return false;
      const at = await readResumePoint(w);
      if (at.seq > checkpoint.lastSeq || at.commit > checkpoint.commit) return false;
      return (['market_snapshots', 'position_snapshots'] as const).every((kind) => listJournalFiles(dataDir, kind).every((f) => !(f.first <= at.snapshots[kind] && f.last > at.snapshots[kind])));
    });
  } catch (err) {
    log.warn(`rebuild: cannot reuse ${tmp} (${(err as Error).message}); starting over`);
    return false;
  } finally {
    await db?.close();
  }
}

/**
 * Rebuilds the derived state from the journal alone into `<target>.rebuild`, then swaps it in
 * (the old state stays usable until the swap). The fold is chunked (catch-up.ts): each chunk is
 * committed with its watermark, so a killed rebuild picks up where it stopped when run again.
 * Refuses while a server holds the state open: DuckDB's file lock makes the probe below fail.
 */
export async function rebuildState(dataDir: string, target = statePath(dataDir), opts: CatchUpOptions = {}): Promise<{ seconds: number; seq: number }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  if (existsSync(target)) await (await Database.open(target, { readers: 0 })).close(); // lock probe
  await recoverJournal(dataDir);
  const checkpoint = readCheckpoint(dataDir);
  const tmp = `${target}.rebuild`;
  const resume = await canResume(tmp, dataDir, checkpoint);
  if (resume) log.info(`rebuild: resuming the interrupted rebuild in ${tmp}`);
  else removeDb(tmp);
  const db = await Database.open(tmp, { readers: 0 });
  try {
    await db.write(async (w) => {
      if (!resume) {
        await w.exec(sqlFile('schema/derived'));
        // first, so a half-built file says which derive SQL built it (see canResume)
        await w.run('derive/meta-set', { key: 'derive_version', value: deriveVersion() });
      }
      // built from empty even when resumed
      await catchUp(w, dataDir, checkpoint, { label: 'rebuild', fromEmpty: true, ...opts });
      // here, not only in close(), which logs a failed checkpoint and goes on: an unwritten file
      // must not be renamed into place
      await w.checkpoint();
    });
  } finally {
    await db.close();
  }
  rmSync(`${target}.wal`, { force: true });
  renameSync(tmp, target);
  const seconds = (performance.now() - started) / 1000;
  // CPU time of every thread (DuckDB's included): it compares runs on a machine whose speed
  // drifts better than wall time does (docs/performance.md, "Rebuild")
  const cpu = process.cpuUsage(cpuBefore);
  log.success(
    `rebuild: derived state rebuilt from the journal up to seq ${checkpoint.lastSeq} in ${seconds.toFixed(1)} s ` +
      `(${(cpu.user / 1e6).toFixed(1)} user + ${(cpu.system / 1e6).toFixed(1)} system CPU-s)`,
  );
  return { seconds, seq: checkpoint.lastSeq };
}
