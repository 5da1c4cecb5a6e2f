import { existsSync, renameSync, rmSync } from 'node:fs';
import { Database } from '../db/database.ts';
import { sqlFile } from '../db/sql-files.ts';
import { log } from '../log.ts';
import { readCheckpoint } from '../journal/checkpoint.ts';
import { recoverJournal } from '../journal/commit.ts';
import { statePath } from '../service.ts';
import { catchUp } from './catch-up.ts';
import { deriveVersion } from './version.ts';

/**
 * Rebuilds the derived state from the journal alone into a new database file, then swaps it in
 * (the old state stays usable until the swap). Refuses while a server holds the state open:
 * DuckDB's file lock makes the probe below fail.
 */
export async function rebuildState(dataDir: string, target = statePath(dataDir)): Promise<{ seconds: number; seq: number }> {
  const started = performance.now();
  if (existsSync(target)) await (await Database.open(target, { readers: 0 })).close(); // lock probe
  recoverJournal(dataDir);
  const checkpoint = readCheckpoint(dataDir);
  const tmp = `${target}.rebuild`;
  rmSync(tmp, { force: true });
  rmSync(`${tmp}.wal`, { force: true });
  const db = await Database.open(tmp, { readers: 0 });
  try {
    await db.write(async (w) => {
      await w.exec(sqlFile('schema/derived'));
      await catchUp(w, dataDir, checkpoint);
      await w.run('derive/meta-set', { key: 'derive_version', value: deriveVersion() });
      await w.exec('CHECKPOINT');
    });
  } finally {
    await db.close();
  }
  rmSync(`${target}.wal`, { force: true });
  renameSync(tmp, target);
  const seconds = (performance.now() - started) / 1000;
  log.success(`rebuild: derived state rebuilt from the journal up to seq ${checkpoint.lastSeq} in ${seconds.toFixed(1)} s`);
  return { seconds, seq: checkpoint.lastSeq };
}
