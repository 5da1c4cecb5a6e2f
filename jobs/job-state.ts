import type { Writer } from '../server/db/writer.ts';
import { sqlFile } from '../server/db/sql-files.ts';

/** Creates the jobs' bookkeeping table if needed (inside the writer). */
export async function ensureJobState(w: Writer): Promise<void> {
  await w.exec(sqlFile('jobs/state-schema'));
}

/** Reads a job's bookkeeping number (undefined when never set). */
export async function readJobNumber(w: Writer, key: string): Promise<number | undefined> {
  await ensureJobState(w);
  const [row] = await w.run('jobs/state-get', { key });
  return row ? Number(row.value) : undefined;
}

/** Sets a job's bookkeeping number. */
export async function writeJobNumber(w: Writer, key: string, value: number): Promise<void> {
  await ensureJobState(w);
  await w.run('jobs/state-set', { key, value: String(value) });
}
