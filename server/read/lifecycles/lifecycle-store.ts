/**
 * The lifecycle store: the account-history, position and lifecycle routes without DuckDB, one store per protocol.
 * Closed lifecycles never change, so up to a mark (a journal seq) each closed or liquidated
 * lifecycle of the protocol is written once, with its record and every fill, into a segment file
 * (server/read/lifecycles/lifecycle-segment.ts) under `<data>/read-index/lifecycles/` (alpha) or
 * `<data>/read-index/lifecycles-beta/`, and its record and `GET /v1/{protocol}/accounts/{address}/history`'s keys again by address
 * (server/read/lifecycles/lifecycle-accounts.ts); the fills at or before the mark of the lifecycles open now
 * (a few thousand) are held in memory as prefixes, which `GET /v1/{protocol}/positions/{address}/{id}/lifecycle` completes with the fills after
 * the mark (one query over the newest fills). What the store does not hold (lifecycles closed after
 * the mark, unknown ids) the position and lifecycle routes read from DuckDB as before; `GET /v1/{protocol}/accounts/{address}/history` holds the
 * lifecycles closed after the mark in memory (server/read/lifecycles/closed-tail.ts).
 *
 * The mark follows the history read index (server/read/lifecycles/history-index.ts): after each of its rebuilds
 * a segment for the lifecycles closed since the previous mark is added, and the prefixes are read
 * again. A segment is written once; the newest two are merged into one (written again from DuckDB)
 * while the older is at most twice the newer (server/read/lifecycles/lifecycle-merge.ts), so a store keeps a
 * few segments however long it runs. A manifest (written atomically after the segment's files)
 * names them. Each segment's data is DuckDB's own text (sql/read/lifecycles/store/lifecycle-docs.sql), so an answer
 * from the store equals the SQL's (test/read/lifecycles/lifecycle-store.test.ts compares them).
 *
 * Not derived state: deleting the directory only costs a rebuild. The manifest records what the
 * files were written from (a hash of the SQL that writes them, the derive version, the record
 * columns, the tx of the last fill at the mark); when any of it differs from the state opened, the
 * store starts again from nothing.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { macrosUsedBy, sqlFingerprint } from '../../db/sql-fingerprint.ts';
import { sqlFile } from '../../db/sql-files.ts';
import { writeFileAtomic, writeFileAtomicAsync } from '../../lib/fs-atomic.ts';
import { log } from '../../lib/log.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { HistoryIndex } from './history-index.ts';
import { Segment, segmentFiles, writeSegment, type SegmentMeta } from './lifecycle-segment.ts';
import { accountFiles } from './lifecycle-accounts.ts';
import { warmPageCache } from '../../lib/page-cache-warm.ts';
import { retire, shouldMergeLast } from './lifecycle-merge.ts';
import type { FillDoc } from './lifecycle-timeline.ts';
import { EMPTY_VIEW, viewOf, type StoreView } from './lifecycle-view.ts';

/** Bumped when the files' layout changes (2: the account files of `GET /v1/alpha/accounts/{address}/history`). */
const FORMAT = 2;

/** A segment's data file name (a manifest naming anything else is not ours: never opened or deleted). */
const SEGMENT_FILE = /^seg-\d+-\d+\.jsonl$/;

interface Manifest {
  format: number;
  /** hash of the SQL the documents come from */
  sql: string;
  derive_version: string | null;
  /** `GET /v1/alpha/positions/{address}/{id}`'s record columns, the order of a record's values */
  columns: string[];
  mark: number;
  /** tx of the last fill at or before the mark (null: none) */
  mark_tx: string | null;
  segments: SegmentMeta[];
}

/** One store per open state and protocol (apps over the same service share it: they would write the same files). */
const stores = new WeakMap<object, Map<Protocol, LifecycleStore>>();

/** See the file comment. */
export class LifecycleStore {
  private current: StoreView = EMPTY_VIEW;
  private segments: Segment[] = [];
  private manifest: Manifest | null = null;
  private opened: Promise<void> | null = null;
  private readonly followed = new WeakSet<HistoryIndex>();
  private extending: Promise<void> = Promise.resolve();
  /** loads and extensions begun and not yet settled (see {@link LifecycleStore.busy}) */
  private pending = 0;
  /** merged segments whose files stay open a while for reads begun before the merge */
  private readonly retired = new Set<Segment>();
  private readonly dir: string;

  /**
   * A store over `service`'s directory. The app uses {@link LifecycleStore.of}; two stores over one
   * directory must not extend at once (tests reopen the files with a second one).
   */
  constructor(
    private readonly service: Service,
    readonly protocol: Protocol = 'alpha',
  ) {
    this.dir = join(service.dataDir, 'read-index', protocol === 'alpha' ? 'lifecycles' : `lifecycles-${protocol}`);
  }

  /** The store of `protocol` in `service`'s data directory (one per open state and protocol). */
  static of(service: Service, protocol: Protocol = 'alpha'): LifecycleStore {
    let byProtocol = stores.get(service.db);
    if (!byProtocol) stores.set(service.db, (byProtocol = new Map()));
    let store = byProtocol.get(protocol);
    if (!store) byProtocol.set(protocol, (store = new LifecycleStore(service, protocol)));
    return store;
  }

  /** Loads the store from its files (or starts it empty) once, then follows `history`'s mark. */
  follow(history: HistoryIndex): Promise<void> {
    this.opened ??= this.track(this.load());
    const done = this.track(
      this.opened.then(async () => {
        if (!this.followed.has(history)) {
          this.followed.add(history);
          history.onRebuilt((mark) => void this.extend(mark).catch((err) => log.warn(`${this.name}: could not extend it`, err)));
        }
        await this.extend(await history.mark());
      }),
    );
    done.catch((err) => log.warn(`${this.name}: not available; the account-history, position and lifecycle routes read DuckDB`, err));
    return done;
  }

  /** How the logs name this store. */
  private get name(): string {
    return `${this.protocol} lifecycle store`;
  }

  /** The store as it is now (empty until opened). */
  view(): StoreView {
    return this.current;
  }

  /**
   * Adds the lifecycles closed in (mark now, `mark`] and reads the open prefixes at `mark`; one
   * extension at a time, in call order, each once the database allows heavy read-side builds
   * (Database.holdReadBuilds: not beside a source's backfill), under the bulk memory limit
   * (Database.underBulkMemory). Resolves once the new view is in use.
   */
  extend(mark: number): Promise<void> {
    const db = this.service.db;
    const next = this.track(this.extending.then(() => db.readBuildsAllowed()).then(() => db.underBulkMemory(() => this.extendTo(mark))));
    this.extending = next.catch(() => undefined);
    return next;
  }

  /**
   * Whether the store is loading its files or adding a segment (waiting for the heavy-build gate
   * included): `GET /v1/alpha/accounts/{address}/history`, `GET /v1/alpha/positions/{address}/{id}` and
   * `GET /v1/alpha/positions/{address}/{id}/lifecycle` then read more from DuckDB (`/health`'s
   * `read_side.warming`).
   */
  busy(): boolean {
    return this.pending > 0;
  }

  /** Counts `work` in {@link LifecycleStore.busy} until it settles. */
  private track(work: Promise<void>): Promise<void> {
    this.pending += 1;
    const settle = () => {
      this.pending -= 1;
    };
    work.then(settle, settle);
    return work;
  }

  /** Closes the segments' files. */
  async close(): Promise<void> {
    await this.extending;
    this.current = EMPTY_VIEW;
    await Promise.all([...this.segments, ...this.retired].map((s) => s.close()));
    this.segments = [];
    this.retired.clear();
  }

  private async extendTo(mark: number): Promise<void> {
    const from = this.manifest?.mark ?? 0;
    if (mark <= from || !this.manifest) return;
    const t0 = performance.now();
    const meta = await writeSegment(this.service.db, this.dir, this.protocol, from, mark);
    // a segment without lifecycles is not kept: the mark moves all the same
    const segment = meta.count > 0 ? Segment.open(this.dir, meta) : null;
    const prefixes = await this.readPrefixes(mark);
    const tx = await this.service.db.queryOne('read/lifecycles/store/mark-fill', { mark });
    const manifest: Manifest = {
      ...this.manifest,
      mark,
      mark_tx: (tx?.tx as string | undefined) ?? null,
      segments: segment ? [...this.manifest.segments, meta] : this.manifest.segments,
    };
    await writeFileAtomicAsync(join(this.dir, 'manifest.json'), JSON.stringify(manifest));
    if (!segment) for (const name of segmentFiles(meta.file)) rmSync(join(this.dir, name), { force: true });
    this.manifest = manifest;
    if (segment) this.segments = [...this.segments, segment];
    this.current = viewOf(this.segments, manifest.columns, mark, prefixes);
    log.info(
      `${this.name}: up to seq ${mark}, ${meta.count} closed lifecycles added ` + `(${((meta.bytes + meta.records_bytes) / 1e6).toFixed(0)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    await this.mergeNewest();
  }

  /** Merges the newest two segments into one while {@link shouldMergeLast} says so. */
  private async mergeNewest(): Promise<void> {
    while (this.manifest && shouldMergeLast(this.manifest.segments.map((m) => m.count))) {
      const t0 = performance.now();
      const [older, newer] = this.manifest.segments.slice(-2) as [SegmentMeta, SegmentMeta];
      const meta = await writeSegment(this.service.db, this.dir, this.protocol, older.after, newer.mark);
      const merged = Segment.open(this.dir, meta);
      const manifest: Manifest = { ...this.manifest, segments: [...this.manifest.segments.slice(0, -2), meta] };
      await writeFileAtomicAsync(join(this.dir, 'manifest.json'), JSON.stringify(manifest));
      const replaced = this.segments.slice(-2);
      this.manifest = manifest;
      this.segments = [...this.segments.slice(0, -2), merged];
      this.current = viewOf(this.segments, manifest.columns, manifest.mark, this.current.prefixes);
      retire(this.dir, replaced, this.retired);
      log.info(`${this.name}: segments ${older.file} and ${newer.file} merged (${meta.count} lifecycles) ` + `in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  }

  private async readPrefixes(mark: number): Promise<Map<number, FillDoc[]>> {
    const prefixes = new Map<number, FillDoc[]>();
    for (const row of await this.service.db.query('read/lifecycles/store/open-prefix-docs', { protocol: this.protocol, mark })) {
      const id = row.position_id as number;
      let list = prefixes.get(id);
      if (!list) prefixes.set(id, (list = []));
      list.push(JSON.parse(row.doc as string) as FillDoc);
    }
    return prefixes;
  }

  /** What the files must have been written from to be used with the state opened. */
  private async expected(): Promise<Omit<Manifest, 'mark' | 'mark_tx' | 'segments'>> {
    // as the SQL runs, with the macros it calls and no others: a comment edit, or a change to a
    // macro the store never calls, does not make every data directory write its store again
    const store = ['read/lifecycles/store/lifecycle-docs', 'read/lifecycles/store/account-docs', 'read/lifecycles/store/open-prefix-docs'].map(sqlFile);
    const sql = sqlFingerprint([...store, ...macrosUsedBy(sqlFile('schema/read-macros'), store)]);
    const version = await this.service.db.queryOne('ingest/derive-version');
    const columns = (await this.service.db.query('read/lifecycles/store/record-columns')).map((r) => r.column_name as string);
    return { format: FORMAT, sql, derive_version: (version?.value as string | undefined) ?? null, columns };
  }

  /** Opens the segments the manifest names if it matches the state, else starts from nothing. */
  private async load(): Promise<void> {
    const expected = await this.expected();
    mkdirSync(this.dir, { recursive: true });
    let manifest: Manifest | null = null;
    try {
      manifest = JSON.parse(readFileSync(join(this.dir, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      manifest = null; // none yet (or unreadable: start again)
    }
    if (manifest && !(await this.matches(manifest, expected))) {
      log.info(`${this.name}: its files were written from another state or SQL; starting it again`);
      manifest = null;
    }
    if (manifest) {
      const opened: Segment[] = [];
      try {
        for (const m of manifest.segments) opened.push(Segment.open(this.dir, m));
        this.segments = opened;
      } catch (err) {
        log.warn(`${this.name}: a segment could not be opened; starting it again`, err);
        await Promise.all(opened.map((segment) => segment.close())); // their files are removed below
        manifest = null;
      }
    }
    if (!manifest) {
      manifest = { ...expected, mark: 0, mark_tx: null, segments: [] };
      writeFileAtomic(join(this.dir, 'manifest.json'), JSON.stringify(manifest));
    }
    // whatever the manifest does not name: leftovers of a write cut short, files of a discarded store
    const named = new Set(manifest.segments.flatMap((m) => segmentFiles(m.file)));
    for (const name of readdirSync(this.dir)) {
      if (name !== 'manifest.json' && !named.has(name)) rmSync(join(this.dir, name), { force: true });
    }
    this.manifest = manifest;
    // in the background: `GET /v1/alpha/accounts/{address}/history`'s scattered reads of the keys and
    // records are what a cold page cache slows
    void warmPageCache(
      manifest.segments.flatMap((m) => {
        const [keys, records] = accountFiles(m.file);
        return [join(this.dir, keys), join(this.dir, records)];
      }),
    );
    if (manifest.mark > 0) {
      this.current = viewOf(this.segments, manifest.columns, manifest.mark, await this.readPrefixes(manifest.mark));
    }
  }

  private async matches(m: Manifest, expected: Omit<Manifest, 'mark' | 'mark_tx' | 'segments'>): Promise<boolean> {
    if (
      m.format !== expected.format ||
      m.sql !== expected.sql ||
      m.derive_version !== expected.derive_version ||
      JSON.stringify(m.columns) !== JSON.stringify(expected.columns) ||
      !Array.isArray(m.segments) ||
      !m.segments.every((s) => SEGMENT_FILE.test(s.file))
    )
      return false;
    if (m.mark === 0) return true;
    const tx = await this.service.db.queryOne('read/lifecycles/store/mark-fill', { mark: m.mark });
    return ((tx?.tx as string | undefined) ?? null) === m.mark_tx;
  }
}
