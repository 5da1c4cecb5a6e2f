import { existsSync, readdirSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { journalDir, parseFileName } from '../server/journal/layout.ts';
import type { JournalKind, Protocol } from '../server/journal/rows.ts';

/** One committed journal file: its path and the seq (fills) or commit (snapshots) range of its name. */
export interface JournalFile {
  path: string;
  name: string;
  first: number;
  last: number;
}

/** One (kind, protocol, day) partition directory and its committed files, in name order. */
export interface Partition {
  kind: JournalKind;
  protocol: Protocol;
  day: string;
  dir: string;
  files: JournalFile[];
}

const PROTOCOL_DIR = /^protocol=([a-z]+)$/;
const DAY_DIR = /^day=(\d{4}-\d{2}-\d{2})$/;

/** A partition's directory, before its files are read. */
type PartitionDir = Omit<Partition, 'files'>;

/** The (protocol, day) directories of one kind under `root` (of `days` only when given), in name order. */
function partitionDirs(root: string, kind: JournalKind, days?: ReadonlySet<string>): PartitionDir[] {
  const kindDir = join(root, kind);
  if (!existsSync(kindDir)) return [];
  const out: PartitionDir[] = [];
  for (const p of readdirSync(kindDir).sort()) {
    const pm = PROTOCOL_DIR.exec(p);
    if (!pm) continue;
    for (const d of readdirSync(join(kindDir, p)).sort()) {
      const dm = DAY_DIR.exec(d);
      if (!dm || (days && !days.has(dm[1] as string))) continue;
      out.push({ kind, protocol: pm[1] as Protocol, day: dm[1] as string, dir: join(kindDir, p, d) });
    }
  }
  return out;
}

/** The partition of `at` with its committed files among `names`; undefined when it has none. */
function partitionOf(at: PartitionDir, names: string[]): Partition | undefined {
  const files: JournalFile[] = [];
  for (const name of names.sort()) {
    const range = parseFileName(name);
    if (range) files.push({ path: join(at.dir, name), name, ...range });
  }
  return files.length ? { ...at, files } : undefined;
}

/**
 * Lists the partitions of one journal kind under `root` (a data directory's `journal/`, or a
 * copied partition set laid out the same way), with their committed files. Temp files and strays
 * (anything not named `<first>-<last>.parquet`) are ignored. With `days`, only those days are read.
 */
export function listPartitions(root: string, kind: JournalKind, days?: ReadonlySet<string>): Partition[] {
  return partitionDirs(root, kind, days).flatMap((at) => partitionOf(at, readdirSync(at.dir)) ?? []);
}

/** The partitions of a data directory's journal (only those of `days` when given). */
export function dataPartitions(dataDir: string, kind: JournalKind, days?: ReadonlySet<string>): Partition[] {
  return listPartitions(journalDir(dataDir), kind, days);
}

/** Directories read at once by {@link dataPartitionsAsync}. */
const READS_AT_ONCE = 64;

/**
 * {@link dataPartitions} with each partition's directory read off the event loop: a journal has
 * one per kind, protocol and day (2,926 on the bench journal, 32-195 ms to read synchronously),
 * which the hourly compaction lists inside a serving process.
 */
export async function dataPartitionsAsync(dataDir: string, kind: JournalKind): Promise<Partition[]> {
  const dirs = partitionDirs(journalDir(dataDir), kind);
  const out: Partition[] = [];
  for (let i = 0; i < dirs.length; i += READS_AT_ONCE) {
    const read = await Promise.all(dirs.slice(i, i + READS_AT_ONCE).map(async (at) => partitionOf(at, await readdir(at.dir))));
    for (const part of read) if (part) out.push(part);
  }
  return out;
}

/**
 * A DuckDB list literal of file paths for `read_parquet([...])`. File names cannot be bound
 * parameters; these are our own paths (quotes doubled all the same).
 */
export function fileListSql(paths: readonly string[]): string {
  return `[${paths.map((p) => `'${p.replaceAll("'", "''")}'`).join(', ')}]`;
}

/** `sql` with its `__FILES__` placeholder replaced by the list literal of `paths`. */
export function withFiles(sql: string, paths: readonly string[]): string {
  if (!sql.includes('__FILES__')) throw new Error('SQL has no __FILES__ placeholder');
  return sql.replaceAll('__FILES__', fileListSql(paths));
}

/** UTC day (YYYY-MM-DD) of an epoch-ms time. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
