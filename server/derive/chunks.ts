import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { journalDir, parseFileName } from '../journal/layout.ts';
import type { JournalKind } from '../journal/rows.ts';

/** One committed journal file: its path and the seq (fills) or commit (snapshots) range in its name. */
export interface JournalFile {
  path: string;
  first: number;
  last: number;
}

/**
 * A piece of the journal that catch-up folds in one transaction. Fills: the seqs `from..to`
 * (read from `files`, the files whose seq range meets it). Snapshots: every row of `files`,
 * which hold exactly the commits `from..to` (no file of the kind straddles a chunk boundary).
 * `rows` is exact for both (seqs are gap-free; snapshot counts come from the Parquet footers).
 */
export interface Chunk {
  kind: JournalKind;
  from: number;
  to: number;
  files: string[];
  rows: number;
}

/** Every committed file of `kind`, sorted by range (temp files and strays are skipped). */
export function listJournalFiles(dataDir: string, kind: JournalKind): JournalFile[] {
  const root = join(journalDir(dataDir), kind);
  if (!existsSync(root)) return [];
  const out: JournalFile[] = [];
  for (const entry of readdirSync(root, { recursive: true })) {
    const rel = String(entry);
    const parts = rel.split(/[\\/]/);
    const range = parseFileName(parts.at(-1) ?? '');
    // only files inside protocol=*/day=* partitions, like the glob the journal is read with
    if (range && parts.length === 3 && parts[0]!.startsWith('protocol=') && parts[1]!.startsWith('day=')) {
      out.push({ path: join(root, rel), ...range });
    }
  }
  return out.sort((a, b) => a.first - b.first || a.last - b.last);
}

/**
 * Splits the fills with seq in (afterSeq, lastSeq] into chunks of at most `chunkRows` seqs, each
 * with the files that hold some of its seqs, so a chunk reads only those files (row-group
 * statistics on seq skip the rest of a file that straddles a boundary).
 */
export function planFillChunks(files: readonly JournalFile[], afterSeq: number, lastSeq: number, chunkRows: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let from = afterSeq + 1; from <= lastSeq; from += chunkRows) {
    const to = Math.min(lastSeq, from + chunkRows - 1);
    const hit = files.filter((f) => f.first <= to && f.last >= from).map((f) => f.path);
    chunks.push({ kind: 'fills', from, to, files: hit, rows: to - from + 1 });
  }
  return chunks;
}

/**
 * Groups the snapshot files of commits after `afterCommit` into chunks of whole commits in commit
 * order, about `chunkRows` rows each (a chunk is never split below one file group). A compacted
 * file covers a range of commits and its rows carry no commit of their own, so files whose ranges
 * overlap always land in the same chunk. A file that straddles `afterCommit` is taken whole, as
 * the one-batch catch-up always did.
 */
export function planSnapshotChunks(kind: JournalKind, files: readonly JournalFile[], rowsOf: ReadonlyMap<string, number>, afterCommit: number, lastCommit: number, chunkRows: number): Chunk[] {
  const chunks: Chunk[] = [];
  let open: Chunk | undefined;
  for (const f of files) {
    if (f.last <= afterCommit || f.first > lastCommit) continue;
    const rows = rowsOf.get(f.path) ?? 0;
    // start a new chunk only at a boundary no earlier file crosses, once the open one is full
    if (open && f.first > open.to && open.rows >= chunkRows) {
      chunks.push(open);
      open = undefined;
    }
    if (!open) open = { kind, from: Math.max(f.first, afterCommit + 1), to: f.last, files: [], rows: 0 };
    open.files.push(f.path);
    open.rows += rows;
    open.to = Math.max(open.to, f.last);
  }
  if (open) chunks.push(open);
  return chunks;
}

/**
 * `chunks` with every chunk of `kind` merged into one at the place of the first (commits or
 * seqs from the first's `from` to the last's `to`, all their files and rows), for a fold that
 * takes that kind in one pass.
 */
export function mergeKind(chunks: readonly Chunk[], kind: JournalKind): Chunk[] {
  const of = chunks.filter((c) => c.kind === kind);
  if (of.length < 2) return [...chunks];
  const merged: Chunk = { kind, from: of[0]!.from, to: of.at(-1)!.to, files: of.flatMap((c) => c.files), rows: of.reduce((s, c) => s + c.rows, 0) };
  const at = chunks.indexOf(of[0]!);
  return [...chunks.slice(0, at).filter((c) => c.kind !== kind), merged, ...chunks.slice(at).filter((c) => c.kind !== kind)];
}

/** Row counts of Parquet files from their footers (no data pages are read). */
export async function parquetRowCounts(conn: DuckDBConnection, paths: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (paths.length === 0) return out;
  const reader = await conn.runAndReadAll(`SELECT file_name, num_rows FROM parquet_file_metadata(${fileList(paths)})`);
  for (const [name, rows] of reader.getRows()) out.set(String(name), Number(rows));
  return out;
}

/** A DuckDB list literal of file paths, for `read_parquet` (a file list cannot be a bound
 * parameter there). Paths come from our own directory listing; quotes are escaped anyway. */
export function fileList(paths: readonly string[]): string {
  return `[${paths.map((p) => `'${p.replaceAll("'", "''")}'`).join(', ')}]`;
}
