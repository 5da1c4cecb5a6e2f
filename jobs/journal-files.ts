import { existsSync, readdirSync } from 'node:fs';
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

/**
 * Lists the partitions of one journal kind under `root` (a data directory's `journal/`, or a
 * copied partition set laid out the same way), with their committed files. Temp files and strays
 * (anything not named `<first>-<last>.parquet`) are ignored. With `days`, only those days are read.
 */
export function listPartitions(root: string, kind: JournalKind, days?: ReadonlySet<string>): Partition[] {
  const kindDir = join(root, kind);
  if (!existsSync(kindDir)) return [];
  const out: Partition[] = [];
  for (const p of readdirSync(kindDir).sort()) {
    const pm = PROTOCOL_DIR.exec(p);
    if (!pm) continue;
    for (const d of readdirSync(join(kindDir, p)).sort()) {
      const dm = DAY_DIR.exec(d);
      if (!dm || (days && !days.has(dm[1] as string))) continue;
      const dir = join(kindDir, p, d);
      const files: JournalFile[] = [];
      for (const name of readdirSync(dir).sort()) {
        const range = parseFileName(name);
        if (range) files.push({ path: join(dir, name), name, ...range });
      }
      if (files.length) out.push({ kind, protocol: pm[1] as Protocol, day: dm[1] as string, dir, files });
    }
  }
  return out;
}

/** The partitions of a data directory's journal (only those of `days` when given). */
export function dataPartitions(dataDir: string, kind: JournalKind, days?: ReadonlySet<string>): Partition[] {
  return listPartitions(journalDir(dataDir), kind, days);
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
