import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { log } from '../log.ts';
import { readCheckpoint, writeCheckpoint, type Checkpoint } from './checkpoint.ts';
import { fsyncPath, writeFileAtomic } from './fs-atomic.ts';
import { fileName, journalDir, partitionDir } from './layout.ts';
import { COLUMNS_OF, type JournalKind, type Protocol } from './rows.ts';

/** A redo record: once it is on disk, the commit it describes will complete, even after a crash. */
interface Intent {
  commit: number;
  renames: [tmp: string, final: string][];
  checkpoint: Checkpoint;
}

const STAGING_OF: Record<JournalKind, string> = {
  fills: 'batch_fills',
  market_snapshots: 'batch_msnap',
  position_snapshots: 'batch_psnap',
};

/** Quotes a string as a SQL literal. Only for file paths and our own validated values: COPY's
 * target cannot be a bound parameter. */
function literal(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** Partitions (protocol, day) present in a staged kind, with the seq range for fills. */
async function partitionsOf(conn: DuckDBConnection, kind: JournalKind) {
  const range = kind === 'fills' ? 'min(seq)::BIGINT, max(seq)::BIGINT' : '0::BIGINT, 0::BIGINT';
  const reader = await conn.runAndReadAll(
    `SELECT protocol, strftime(time, '%Y-%m-%d') AS day, ${range} FROM ${STAGING_OF[kind]} GROUP BY ALL ORDER BY ALL`,
  );
  return reader.getRows().map(([p, d, first, last]) => ({
    protocol: p as Protocol,
    day: d as string,
    first: Number(first),
    last: Number(last),
  }));
}

/**
 * Writes the staged batch (already given seqs and position ids) into the journal as one atomic
 * commit: every Parquet file is written by DuckDB under a temp name and fsynced; then a redo
 * intent is written; then the files are renamed into place and the checkpoint advanced; then
 * the intent is removed. A crash before the intent leaves only temp files (swept at start-up,
 * the batch is simply not in the journal); a crash after it is rolled forward by
 * {@link recoverJournal}. Returns the paths of the files written.
 */
export async function commitBatch(conn: DuckDBConnection, dataDir: string, checkpoint: Checkpoint): Promise<string[]> {
  const commit = checkpoint.commit;
  const renames: [string, string][] = [];
  for (const kind of Object.keys(STAGING_OF) as JournalKind[]) {
    const cols = COLUMNS_OF[kind].map(([n]) => `"${n}"`).join(', ');
    const order = kind === 'fills' ? 'seq' : 'ord_row';
    for (const part of await partitionsOf(conn, kind)) {
      const dir = partitionDir(dataDir, kind, part.protocol, part.day);
      mkdirSync(dir, { recursive: true });
      const name = kind === 'fills' ? fileName(part.first, part.last) : fileName(commit, commit);
      const final = join(dir, name);
      const tmp = join(dir, `.tmp-${commit}-${name}`);
      await conn.run(
        `COPY (SELECT ${cols} FROM ${STAGING_OF[kind]} WHERE protocol = ${literal(part.protocol)} ` +
          `AND strftime(time, '%Y-%m-%d') = ${literal(part.day)} ORDER BY ${order}) ` +
          `TO ${literal(tmp)} (FORMAT parquet, COMPRESSION zstd)`,
      );
      fsyncPath(tmp);
      renames.push([tmp, final]);
    }
  }
  const intentPath = join(journalDir(dataDir), `commit-${commit}.intent.json`);
  mkdirSync(journalDir(dataDir), { recursive: true });
  writeFileAtomic(intentPath, JSON.stringify({ commit, renames, checkpoint } satisfies Intent));
  applyIntent(dataDir, intentPath);
  return renames.map(([, final]) => final);
}

/** Completes a written intent: renames what is still under a temp name, advances the checkpoint. */
function applyIntent(dataDir: string, intentPath: string): void {
  const intent = JSON.parse(readFileSync(intentPath, 'utf8')) as Intent;
  const dirs = new Set<string>();
  for (const [tmp, final] of intent.renames) {
    if (existsSync(tmp)) renameSync(tmp, final);
    dirs.add(dirname(final));
  }
  for (const dir of dirs) fsyncPath(dir);
  if (readCheckpoint(dataDir).commit < intent.commit) writeCheckpoint(dataDir, intent.checkpoint);
  unlinkSync(intentPath);
}

/**
 * Start-up recovery: rolls forward every commit whose intent was written, then deletes temp
 * files of commits that never reached their intent. Afterwards the journal on disk is exactly
 * the committed batches and `checkpoint.json` describes the last one.
 */
export function recoverJournal(dataDir: string): void {
  const root = journalDir(dataDir);
  if (!existsSync(root)) return;
  const intents = readdirSync(root)
    .filter((f) => /^commit-\d+\.intent\.json$/.test(f))
    .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]));
  for (const f of intents) {
    log.warn(`journal: completing interrupted commit ${f}`);
    applyIntent(dataDir, join(root, f));
  }
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && basename(entry.name).startsWith('.tmp-')) {
      const path = join(entry.parentPath, entry.name);
      log.warn(`journal: removing uncommitted temp file ${path}`);
      unlinkSync(path);
    }
  }
}
