/**
 * One segment of the lifecycle store (server/read/lifecycles/lifecycle-store.ts): the lifecycles of one
 * protocol that closed between two marks, each with its record and every fill, as one line of JSON in a file
 * ordered by position_id, and an index file of (position_id, byte offset) pairs. A lookup is a
 * binary search in memory and one `read` of a few hundred bytes to a few KB: no SQL, no planning,
 * no cold DuckDB blocks (the position and lifecycle routes spent ~1 ms on a DuckDB round trip, 2-3.5 ms
 * planning and the rest reading scattered blocks of 4 GB of tables).
 *
 * Files: `seg-<after>-<mark>.jsonl` (line i = `[record, [fill, ...]]`, the documents of
 * sql/read/lifecycles/store/lifecycle-docs.sql) and `seg-<after>-<mark>.idx` (float64s: count, the ids ascending,
 * then count + 1 offsets; the last is the data file's size). Both are written under temp names,
 * fsynced and renamed; the store's manifest, written after them, is what makes a segment part of the
 * store, so a crash mid-write leaves only files that nothing names (removed at the next open).
 * The same lifecycles by address, for `GET /v1/alpha/accounts/{address}/history`, are in the segment's
 * account files (server/read/lifecycles/lifecycle-accounts.ts).
 */
import { rename } from 'node:fs/promises';
import { close, closeSync, fstatSync, openSync, read, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';
import { fsyncFd, writeFileAtomicAsync } from '../../lib/fs-atomic.ts';
import { BufferedWriter } from '../../lib/buffered-writer.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { FillDoc } from './lifecycle-timeline.ts';
import { lowerBound } from '../../lib/lower-bound.ts';
import { AccountFiles, accountFiles, writeAccountFiles, type AccountRun } from './lifecycle-accounts.ts';

/** Lifecycles per query of a segment's documents (see {@link writeSegment}). */
const CHUNK_LIFECYCLES = 50_000;

/** What the store's manifest records about a segment. */
export interface SegmentMeta {
  /** data file name (the index file is the same with `.idx`) */
  file: string;
  /** lifecycles closed by a fill with after < seq <= mark */
  after: number;
  mark: number;
  count: number;
  bytes: number;
  /** size of the account files' `.recs` */
  records_bytes: number;
}

/** One lifecycle as a segment holds it. */
export interface SegmentEntry {
  /** `GET /v1/alpha/positions/{address}/{id}`'s record values in sql/read/lifecycles/store/record-columns.sql's order (times as epoch µs) */
  record: (number | string | null)[];
  fills: FillDoc[];
}

/** Every file of the segment whose data file is `file`: the data, its index, then the account files. */
export function segmentFiles(file: string): [string, string, ...string[]] {
  return [file, file.replace(/\.jsonl$/, '.idx'), ...accountFiles(file)];
}

/**
 * Writes the segment of `protocol`'s lifecycles closed in (after, mark] into `dir` (reads DuckDB on a pooled
 * reader, streaming through a 1 MB buffer, plus an id and an offset per lifecycle) and
 * returns its metadata. The documents are read {@link CHUNK_LIFECYCLES} lifecycles at a time, in
 * position_id ranges (docs/performance.md, "Memory settings").
 */
export async function writeSegment(db: Database, dir: string, protocol: Protocol, after: number, mark: number): Promise<SegmentMeta> {
  const file = `seg-${after}-${mark}.jsonl`;
  const tmp = join(dir, `.tmp-${file}`);
  const fd = openSync(tmp, 'w');
  const out = new BufferedWriter(fd);
  const ids: number[] = [];
  const offsets: number[] = [];
  let head = ''; // the current lifecycle's record doc
  let fills: string[] = [];
  const endLifecycle = () => {
    if (!head) return;
    offsets.push(out.bytes);
    out.write(`[${head},[`);
    fills.forEach((fill, i) => out.write(i === 0 ? fill : `,${fill}`));
    out.write(']]\n');
  };
  try {
    // one chunk of lifecycles at a time: a whole segment's fills sorted at once ran DuckDB out of memory
    const starts = (await db.query('read/lifecycles/store/lifecycle-chunks', { protocol, after, mark, per: CHUNK_LIFECYCLES })).map((r) => r.from_id as number);
    for (const [i, fromId] of starts.entries()) {
      const toId = starts[i + 1] ?? Number.MAX_SAFE_INTEGER;
      await db.queryChunkColumns('read/lifecycles/store/lifecycle-docs', { protocol, after, mark, from_id: fromId, to_id: toId }, (chunk) => {
        const [idCol, partCol, docCol] = chunk.getColumns() as [bigint[], number[], string[]];
        for (let i = 0; i < chunk.rowCount; i++) {
          if (partCol[i] === 0) {
            endLifecycle();
            ids.push(Number(idCol[i]));
            head = docCol[i]!;
            fills = [];
          } else {
            fills.push(docCol[i]!);
          }
        }
      });
    }
    endLifecycle();
    out.flush();
    await fsyncFd(fd); // tens of MB: off the event loop, which serves requests meanwhile
  } finally {
    closeSync(fd);
  }
  const bytes = out.bytes;
  offsets.push(bytes);
  const count = ids.length;
  const index = new Float64Array(2 * count + 2);
  index[0] = count;
  index.set(ids, 1);
  index.set(offsets, 1 + count);
  await rename(tmp, join(dir, file));
  await writeFileAtomicAsync(join(dir, segmentFiles(file)[1]), new Uint8Array(index.buffer));
  const recordsBytes = await writeAccountFiles(db, dir, file, protocol, after, mark);
  return { file, after, mark, count, bytes, records_bytes: recordsBytes };
}

/** An open segment: its index in memory, its data file open for reads. */
export class Segment {
  private constructor(
    readonly meta: SegmentMeta,
    private readonly ids: Float64Array,
    private readonly offsets: Float64Array,
    /** a plain descriptor, not a FileHandle: the apps of a process are not closed one by one */
    private readonly fd: number,
    private readonly accounts: AccountFiles,
  ) {}

  /** Opens a segment written by {@link writeSegment}; throws when its files do not match `meta`. */
  static open(dir: string, meta: SegmentMeta): Segment {
    const raw = readFileSync(join(dir, segmentFiles(meta.file)[1]));
    // copied: a small file's Buffer may sit at an offset of a shared pool not aligned to 8
    const index = new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    const count = index[0]!;
    if (count !== meta.count || index.length !== 2 * count + 2 || index[2 * count + 1] !== meta.bytes) {
      throw new Error(`lifecycle store: ${meta.file} does not match its manifest`);
    }
    const fd = openSync(join(dir, meta.file), 'r');
    const { size } = fstatSync(fd);
    if (size !== meta.bytes) {
      closeSync(fd);
      throw new Error(`lifecycle store: ${meta.file} has ${size} bytes, its manifest says ${meta.bytes}`);
    }
    let accounts: AccountFiles;
    try {
      accounts = AccountFiles.open(dir, meta.file, count, meta.records_bytes);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    return new Segment(meta, index.subarray(1, 1 + count), index.subarray(1 + count), fd, accounts);
  }

  /** Lifecycle `id`, if this segment holds it. */
  async get(id: number): Promise<SegmentEntry | undefined> {
    const lo = lowerBound(this.ids, id);
    if (this.ids[lo] !== id) return undefined;
    const start = this.offsets[lo]!;
    const length = this.offsets[lo + 1]! - start;
    const buf = Buffer.allocUnsafe(length);
    const bytesRead = await new Promise<number>((resolve, reject) => {
      read(this.fd, buf, 0, length, start, (err, n) => (err ? reject(err) : resolve(n)));
    });
    if (bytesRead !== length) throw new Error(`lifecycle store: short read in ${this.meta.file}`);
    const [record, fills] = JSON.parse(buf.toString('utf8')) as [SegmentEntry['record'], FillDoc[]];
    return { record, fills };
  }

  /** `address`'s closed lifecycles in this segment (`GET /v1/alpha/accounts/{address}/history`), if it has any. */
  account(address: string): Promise<AccountRun | undefined> {
    return this.accounts.account(address);
  }

  /** Closes the files (the caller has stopped handing out reads). */
  async close(): Promise<void> {
    await Promise.all([new Promise<void>((resolve, reject) => close(this.fd, (err) => (err ? reject(err) : resolve()))), this.accounts.close()]);
  }
}
