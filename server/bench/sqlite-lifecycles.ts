/**
 * The lifecycle store's closed lifecycles held in SQLite instead of segment files, for the point-lookup
 * comparison (server/bench/point-lookups.ts): the same rows, copied from a built store's files, keyed
 * by position id (record and fills, the segment line's JSON) and by (address, position id) (the key
 * values and record document of `GET /v1/alpha/accounts/{address}/history`). A
 * {@link SqliteLifecycles} is a LifecycleStore whose view reads those tables; the open lifecycles'
 * prefixes and the mark stay the built store's, so the routes run unchanged on top.
 */
import { closeSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Service } from '../service.ts';
import { KEY_WIDTH, accountFiles } from '../read/lifecycles/lifecycle-accounts.ts';
import { segmentFiles, type SegmentMeta } from '../read/lifecycles/lifecycle-segment.ts';
import { LifecycleStore } from '../read/lifecycles/lifecycle-store.ts';
import { recordRow, type FillDoc } from '../read/lifecycles/lifecycle-timeline.ts';
import type { StoreView } from '../read/lifecycles/lifecycle-view.ts';

/** Reads `length` bytes at `position` of an open file. */
function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) done += readSync(fd, buf, done, length - done, position + done);
  return buf;
}

/** Float64s of a whole small file. */
function float64s(path: string): Float64Array {
  const raw = readFileSync(path);
  return new Float64Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

/**
 * Writes `file` (a new SQLite database) from the store files in `storeDir` (its manifest's segments):
 * returns the rows written. Variant codes, per segment in the files, become one table.
 */
export function buildSqliteLifecycles(storeDir: string, file: string): { lifecycles: number; accountRows: number } {
  rmSync(file, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE TABLE closed (id INTEGER PRIMARY KEY, doc TEXT NOT NULL);
    CREATE TABLE account_rows (address TEXT NOT NULL, position_id INTEGER NOT NULL, opened REAL, closed REAL, size REAL,
      pnl REAL, leverage REAL, variant INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (address, position_id)) WITHOUT ROWID;
    CREATE TABLE variants (code INTEGER PRIMARY KEY, variant TEXT NOT NULL, market TEXT NOT NULL);`);
  const manifest = JSON.parse(readFileSync(join(storeDir, 'manifest.json'), 'utf8')) as { segments: SegmentMeta[] };
  const insertClosed = db.prepare('INSERT INTO closed (id, doc) VALUES (?, ?)');
  const insertRow = db.prepare('INSERT INTO account_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  const codes = new Map<string, number>();
  const variants: [string, string][] = [];
  let lifecycles = 0;
  let accountRows = 0;
  for (const meta of manifest.segments) {
    const [data, idx] = segmentFiles(meta.file);
    const index = float64s(join(storeDir, idx));
    const count = index[0]!;
    const fd = openSync(join(storeDir, data), 'r');
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const [from, to] = [index[1 + count + i]!, index[2 + count + i]!];
        insertClosed.run(index[1 + i]!, readAt(fd, from, to - from - 1).toString('utf8')); // without the newline
      }
    })();
    closeSync(fd);
    lifecycles += count;
    const [keysName, recsName, dirName] = accountFiles(meta.file);
    const directory = JSON.parse(readFileSync(join(storeDir, dirName), 'utf8')) as { variants: [string, string][]; addresses: string[]; starts: number[] };
    const global = directory.variants.map(([variant, market]) => {
      let code = codes.get(variant);
      if (code === undefined) {
        codes.set(variant, (code = variants.length));
        variants.push([variant, market]);
      }
      return code;
    });
    const keys = float64s(join(storeDir, keysName));
    const recs = readFileSync(join(storeDir, recsName));
    db.transaction(() => {
      directory.addresses.forEach((address, a) => {
        for (let row = directory.starts[a]!; row < directory.starts[a + 1]!; row++) {
          const k = keys.subarray(row * KEY_WIDTH, (row + 2) * KEY_WIDTH);
          const nullable = (x: number): number | null => (Number.isNaN(x) ? null : x);
          const doc = recs.toString('utf8', k[7]!, k[KEY_WIDTH + 7]! - 1);
          insertRow.run(address, k[0]!, k[1]!, k[2]!, nullable(k[3]!), k[4]!, k[5]!, global[k[6]!]!, doc);
          accountRows += 1;
        }
      });
    })();
  }
  const insertVariant = db.prepare('INSERT INTO variants VALUES (?, ?, ?)');
  variants.forEach(([variant, market], code) => insertVariant.run(code, variant, market));
  db.close();
  return { lifecycles, accountRows };
}

/** A LifecycleStore whose closed lifecycles come from a database written by {@link buildSqliteLifecycles}. */
export class SqliteLifecycles extends LifecycleStore {
  private readonly db: Database.Database;
  private readonly closedDoc: Database.Statement<[number], { doc: string }>;
  private readonly keyRows: Database.Statement<[string], { position_id: number; opened: number; closed: number; size: number | null; pnl: number; leverage: number; variant: number }>;
  private readonly recordDocs: Database.Statement<[string, string], { position_id: number; doc: string }>;
  private readonly variants: [string, string][];

  /** `built` is the store whose mark, record columns and open prefixes the view keeps. */
  constructor(
    service: Service,
    file: string,
    private readonly built: LifecycleStore,
  ) {
    super(service);
    this.db = new Database(file, { readonly: true });
    this.closedDoc = this.db.prepare('SELECT doc FROM closed WHERE id = ?');
    this.keyRows = this.db.prepare(`SELECT position_id, opened, closed, size, pnl, leverage, variant FROM account_rows
      WHERE address = ? ORDER BY position_id`);
    this.recordDocs = this.db.prepare(`SELECT position_id, doc FROM account_rows
      WHERE address = ? AND position_id IN (SELECT value FROM json_each(?))`);
    this.variants = (this.db.prepare('SELECT variant, market FROM variants ORDER BY code').all() as { variant: string; market: string }[]).map((v) => [v.variant, v.market]);
  }

  override view(): StoreView {
    const base = this.built.view();
    return {
      mark: base.mark,
      prefixes: base.prefixes,
      columns: base.columns,
      closed: async (id) => {
        const row = this.closedDoc.get(id);
        if (!row) return undefined;
        const [record, fills] = JSON.parse(row.doc) as [(number | string | null)[], FillDoc[]];
        return { record: recordRow(base.columns, record), fills };
      },
      accounts: async (address) => {
        const rows = this.keyRows.all(address);
        if (rows.length === 0) return [];
        const keys = new Float64Array((rows.length + 1) * KEY_WIDTH);
        rows.forEach((r, i) => keys.set([r.position_id, r.opened, r.closed, r.size ?? Number.NaN, r.pnl, r.leverage, r.variant, i], i * KEY_WIDTH));
        const records = async (wanted: readonly number[]): Promise<string[]> => {
          const ids = wanted.map((i) => rows[i]!.position_id);
          const docs = new Map(this.recordDocs.all(address, JSON.stringify(ids)).map((r) => [r.position_id, r.doc]));
          return ids.map((id) => docs.get(id)!);
        };
        return [{ keys, count: rows.length, variants: this.variants, records }];
      },
    };
  }

  override async close(): Promise<void> {
    this.db.close();
  }
}
