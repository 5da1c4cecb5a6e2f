/**
 * A lifecycle-store segment's files by address (server/read/lifecycles/lifecycle-segment.ts has them by id): what
 * `GET /v1/alpha/accounts/{address}/history` needs of an account's closed lifecycles without DuckDB
 * (its whales have thousands of closed lifecycles, read through a statement DuckDB plans at every
 * execution).
 *
 * Files, beside the segment's `seg-<after>-<mark>.jsonl`:
 * - `.keys`: float64 rows of {@link KEY_WIDTH}, in (address, position_id) order: position_id, opened
 *   µs, closed µs, max_size_usd (NaN for NULL), net_pnl_usd, max_leverage, market-variant code, byte
 *   offset of the record in `.recs`; then one last row whose offset is `.recs`' size (so every row's
 *   record ends where the next row's starts).
 * - `.recs`: each record's document (sql/read/lifecycles/store/account-docs.sql), newline-separated, in the same order.
 * - `.accounts.json`: the variants (code → [variant, market]) and each address's first row.
 * An account's rows are one `read`; a page's records are one `read` per run of nearby records.
 * Written under temp names, fsynced, renamed, before the manifest names the segment.
 */
import { rename } from 'node:fs/promises';
import { close, closeSync, fstatSync, openSync, read, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../../db/database.ts';
import { fsyncFd, writeFileAtomicAsync } from '../../lib/fs-atomic.ts';
import { BufferedWriter } from '../../lib/buffered-writer.ts';
import type { Protocol } from '../../journal/rows.ts';

/** Float64 values per key row. */
export const KEY_WIDTH = 8;
/** Positions in a key row. */
export const K = { id: 0, opened: 1, closed: 2, size: 3, pnl: 4, leverage: 5, variant: 6, offset: 7 } as const;

/**
 * Records closer than this in `.recs` are read together: a few KB more from the page cache cost
 * less than one more `read` through libuv's thread pool. Not more: a page sorted by another key
 * than time has its records spread over the whole account, and at 64 KB they were merged into one
 * read of megabytes (a fresh buffer, faulted in page by page). 16 KB served the largest whale's
 * page two to four times faster than 64 KB, and 4 or 8 KB no faster (docs/performance.md, "Lifecycle
 * store read gap").
 */
const READ_GAP = 16 * 1024;

/** Market-variant codes of key rows: `list[code]` = [market_variant, market], codes given in first-seen order. */
export class VariantCodes {
  readonly list: [string | null, string][] = [];
  private readonly codes = new Map<string, number>();

  /**
   * The code of `variant` of `market`, added when new; a protocol without variants (null, beta)
   * has one code per market.
   */
  code(variant: string | null, market: string): number {
    const key = variant ?? `\u0000${market}`;
    let code = this.codes.get(key);
    if (code === undefined) {
      this.codes.set(key, (code = this.list.length));
      this.list.push([variant, market]);
    }
    return code;
  }
}

/**
 * Sets `row` ({@link KEY_WIDTH} values) to one lifecycle's key row from the columns that
 * sql/read/lifecycles/store/account-docs.sql and sql/read/lifecycles/alpha-closed-after.sql both give (a NULL size as NaN).
 */
export function setKeyRow(
  row: Float64Array | number[],
  id: number,
  opened: number,
  closed: number,
  size: number | null,
  pnl: number,
  leverage: number,
  variantCode: number,
  recordOffset: number,
): void {
  row[K.id] = id;
  row[K.opened] = opened;
  row[K.closed] = closed;
  row[K.size] = size ?? NaN;
  row[K.pnl] = pnl;
  row[K.leverage] = leverage;
  row[K.variant] = variantCode;
  row[K.offset] = recordOffset;
}

/** The by-address files of the segment whose data file is `file`. */
export function accountFiles(file: string): [string, string, string] {
  const base = file.replace(/\.jsonl$/, '');
  return [`${base}.keys`, `${base}.recs`, `${base}.accounts.json`];
}

interface Directory {
  /** code → [market_variant, market] */
  variants: [string | null, string][];
  /** addresses in file order, and each one's first key row (then the row count) */
  addresses: string[];
  starts: number[];
}

/** Writes the by-address files of the segment (after, mark] named by `file`; returns `.recs`' size. */
export async function writeAccountFiles(db: Database, dir: string, file: string, protocol: Protocol, after: number, mark: number): Promise<number> {
  const [keysName, recsName, dirName] = accountFiles(file);
  const keysTmp = join(dir, `.tmp-${keysName}`);
  const recsTmp = join(dir, `.tmp-${recsName}`);
  const keysFd = openSync(keysTmp, 'w');
  const recsFd = openSync(recsTmp, 'w');
  const codes = new VariantCodes();
  const directory: Directory = { variants: codes.list, addresses: [], starts: [] };
  const keys = new BufferedWriter(keysFd);
  const recs = new BufferedWriter(recsFd);
  const row = new Float64Array(KEY_WIDTH);
  const rowBytes = new Uint8Array(row.buffer);
  let rows = 0;
  try {
    await db.queryChunkColumns('read/lifecycles/store/account-docs', { protocol, after, mark }, (chunk) => {
      const [address, id, variant, market, opened, closed, size, pnl, leverage, doc] = chunk.getColumns() as [
        string[],
        number[],
        string[],
        string[],
        number[],
        number[],
        (number | null)[],
        number[],
        number[],
        string[],
      ];
      for (let i = 0; i < chunk.rowCount; i++) {
        if (directory.addresses[directory.addresses.length - 1] !== address[i]) {
          directory.addresses.push(address[i]!);
          directory.starts.push(rows);
        }
        setKeyRow(row, id[i]!, opened[i]!, closed[i]!, size[i]!, pnl[i]!, leverage[i]!, codes.code(variant[i]!, market[i]!), recs.bytes);
        keys.writeBytes(rowBytes);
        recs.write(doc[i]!);
        recs.write('\n');
        rows += 1;
      }
    });
    row.set([NaN, NaN, NaN, NaN, NaN, NaN, NaN, recs.bytes]);
    keys.writeBytes(rowBytes);
    directory.starts.push(rows);
    keys.flush();
    recs.flush();
    // off the event loop, which serves requests meanwhile
    await Promise.all([fsyncFd(keysFd), fsyncFd(recsFd)]);
  } finally {
    closeSync(keysFd);
    closeSync(recsFd);
  }
  await rename(keysTmp, join(dir, keysName));
  await rename(recsTmp, join(dir, recsName));
  await writeFileAtomicAsync(join(dir, dirName), JSON.stringify(directory));
  return recs.bytes;
}

/** One account's rows in one segment: `keys` holds `count` + 1 rows (the last only ends the last record). */
export interface AccountRun {
  /** `count` key rows of {@link KEY_WIDTH} (a file's run has one more, whose offset ends the last record) */
  keys: Float64Array;
  count: number;
  /** code → [market_variant, market] */
  variants: readonly [string | null, string][];
  /** The documents of rows `rows` (indexes into this run, any order), in that order. */
  records(rows: readonly number[]): Promise<string[]>;
}

/** A segment's by-address files, open for reads. */
export class AccountFiles {
  private constructor(
    private readonly file: string,
    private readonly directory: Directory,
    private readonly firstRow: Map<string, number>,
    private readonly keysFd: number,
    private readonly recsFd: number,
  ) {}

  /** Opens the files written by {@link writeAccountFiles}; throws when they do not fit `count` and `bytes`. */
  static open(dir: string, file: string, count: number, bytes: number): AccountFiles {
    const [keysName, recsName, dirName] = accountFiles(file);
    const directory = JSON.parse(readFileSync(join(dir, dirName), 'utf8')) as Directory;
    if (directory.starts.length !== directory.addresses.length + 1 || directory.starts.at(-1) !== count) {
      throw new Error(`lifecycle store: ${dirName} does not match its manifest`);
    }
    const keysFd = openSync(join(dir, keysName), 'r');
    const recsFd = openSync(join(dir, recsName), 'r');
    if (fstatSync(keysFd).size !== (count + 1) * KEY_WIDTH * 8 || fstatSync(recsFd).size !== bytes) {
      closeSync(keysFd);
      closeSync(recsFd);
      throw new Error(`lifecycle store: ${keysName} or ${recsName} does not match its manifest`);
    }
    const firstRow = new Map(directory.addresses.map((a, i) => [a, i]));
    return new AccountFiles(file, directory, firstRow, keysFd, recsFd);
  }

  /** `address`'s rows, or undefined when this segment has none. */
  async account(address: string): Promise<AccountRun | undefined> {
    const i = this.firstRow.get(address);
    if (i === undefined) return undefined;
    const start = this.directory.starts[i]!;
    const count = this.directory.starts[i + 1]! - start;
    const keys = new Float64Array((count + 1) * KEY_WIDTH);
    await this.readExactly(this.keysFd, new Uint8Array(keys.buffer), start * KEY_WIDTH * 8);
    return { keys, count, variants: this.directory.variants, records: (rows) => this.records(keys, rows) };
  }

  private async records(keys: Float64Array, rows: readonly number[]): Promise<string[]> {
    const span = (row: number): [number, number] => [keys[row * KEY_WIDTH + K.offset]!, keys[(row + 1) * KEY_WIDTH + K.offset]!];
    const order = [...rows.keys()].sort((a, b) => span(rows[a]!)[0] - span(rows[b]!)[0]);
    const out: string[] = new Array<string>(rows.length);
    // runs of records no more than READ_GAP apart: one read each, all issued at once
    const groups: [number, number][] = [];
    for (let g = 0; g < order.length; ) {
      let end = g + 1;
      while (end < order.length && span(rows[order[end]!]!)[0] - span(rows[order[end - 1]!]!)[1] <= READ_GAP) end += 1;
      groups.push([g, end]);
      g = end;
    }
    await Promise.all(
      groups.map(async ([g, end]) => {
        const from = span(rows[order[g]!]!)[0];
        const buf = Buffer.allocUnsafe(span(rows[order[end - 1]!]!)[1] - from);
        await this.readExactly(this.recsFd, buf, from);
        for (let j = g; j < end; j++) {
          const [s, e] = span(rows[order[j]!]!);
          out[order[j]!] = buf.toString('utf8', s - from, e - from - 1); // without the newline
        }
      }),
    );
    return out;
  }

  private async readExactly(fd: number, into: Uint8Array, position: number): Promise<void> {
    const n = await new Promise<number>((resolve, reject) => {
      read(fd, into, 0, into.byteLength, position, (err, bytesRead) => (err ? reject(err) : resolve(bytesRead)));
    });
    if (n !== into.byteLength) throw new Error(`lifecycle store: short read in ${this.file}'s account files`);
  }

  /** Closes both files. */
  async close(): Promise<void> {
    await Promise.all(
      [this.keysFd, this.recsFd].map(
        (fd) =>
          new Promise<void>((resolve, reject) => {
            close(fd, (err) => (err ? reject(err) : resolve()));
          }),
      ),
    );
  }
}
