import { join } from 'node:path';
import type { JournalKind, Protocol } from './rows.ts';

/**
 * The journal's on-disk layout (a public interface, see docs/journal.md):
 *   <data>/journal/<kind>/protocol=<p>/day=<YYYY-MM-DD>/<first>-<last>.parquet
 * For fills <first>-<last> is the seq range of the rows in the file; for snapshots (which have
 * no seq) it is the range of commit numbers the file holds. Both are 12-digit zero-padded so
 * names sort in order. `checkpoint.json` holds the last commit; `*.intent.json` are redo records
 * of a commit in flight (see commit.ts).
 */

export function journalDir(dataDir: string): string {
  return join(dataDir, 'journal');
}

export function partitionDir(dataDir: string, kind: JournalKind, protocol: Protocol, day: string): string {
  return join(journalDir(dataDir), kind, `protocol=${protocol}`, `day=${day}`);
}

const pad = (n: number): string => String(n).padStart(12, '0');

export function fileName(first: number, last: number): string {
  return `${pad(first)}-${pad(last)}.parquet`;
}

/** Parses `<first>-<last>.parquet`; undefined for anything else (temp files, strays). */
export function parseFileName(name: string): { first: number; last: number } | undefined {
  const m = /^(\d{12})-(\d{12})\.parquet$/.exec(name);
  return m ? { first: Number(m[1]), last: Number(m[2]) } : undefined;
}

/** Glob of every committed file of one journal kind (for DuckDB `read_parquet`). */
export function kindGlob(dataDir: string, kind: JournalKind): string {
  return join(journalDir(dataDir), kind, 'protocol=*', 'day=*', '*.parquet');
}
