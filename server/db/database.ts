import { DuckDBInstance, type DuckDBConnection, type DuckDBDataChunk } from '@duckdb/node-api';
import { log } from '../lib/log.ts';
import { allocatorOptions } from './bulk-allocator.ts';
import { sqlFile } from './sql-files.ts';
import { appendPlainRows, plainRowsOf } from './chunk-rows.ts';
import { bindParams, bindValues, runOn, type Params, type PooledConnection, type Row } from './run-sql.ts';
import { isMemoryLimit } from './memory-limit.ts';
import type { ParamsFor, RowFor } from './typed-calls.ts';
import { Writer } from './writer.ts';

export type { Params, Row } from './run-sql.ts';

/**
 * One DuckDB instance per process, a small pool of reader connections (a DuckDB connection runs
 * one query at a time), and one writer connection whose work is serialized by a promise chain.
 */
export class Database {
  private readonly idle: PooledConnection[] = [];
  private readonly waiters: ((c: PooledConnection) => void)[] = [];
  private writer!: PooledConnection;
  /** writes the journal's Parquet files under the write lock, beside the writer (see Writer.journal) */
  private journal!: DuckDBConnection;
  private writeChain: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private readonly closeHooks: (() => void)[] = [];
  /** resolved while heavy read-side builds may run (see {@link Database.holdReadBuilds}) */
  private readBuilds: Promise<void> = Promise.resolve();
  /** the serving limit set by {@link setMemoryLimit} (null: none yet, the bulk limit holds) */
  private servingLimit: string | null = null;
  /** heavy read-side builds running or waiting their turn (see {@link underBulkMemory}) */
  private bulkBuilds = 0;
  /** the end of the last build queued: builds run one at a time */
  private bulkTurn: Promise<unknown> = Promise.resolve();
  /** whether the bulk limit was set for the builds now queued */
  private bulkLimitSet = false;

  private constructor(
    readonly instance: DuckDBInstance,
    readonly path: string,
    private threadCount: number,
    /** the memory limit the instance opened with (bulk work) */
    readonly bulkLimit: string,
  ) {}

  /** DuckDB's worker threads now. */
  get threads(): number {
    return this.threadCount;
  }

  /** Sets DuckDB's worker threads for the whole instance (e.g. fewer while a simulator thread
   * takes a core, see simulate-source.ts). */
  async setThreads(n: number): Promise<void> {
    if (!Number.isInteger(n) || n < 1) throw new Error(`threads ${n}: expected a positive integer`);
    await this.write((w) => w.exec(`SET threads = ${n}`));
    this.threadCount = n;
  }

  /**
   * Opens (or creates) the database file at `path` (`:memory:` for tests), attached as `state`
   * without a write-ahead log: a commit is durable only once a checkpoint wrote it (see
   * {@link checkpoint}). Everything in it is derived from the journal, which is durable on its
   * own, and a checkpoint writes the derived tables and their watermark together; so after a
   * crash the file holds an older but consistent state that start-up catches up from the journal
   * (server/derive/catch-up.ts). A WAL would write every row twice (into the log at its commit,
   * into the file at the checkpoint) (docs/performance.md, "Derived state without a WAL"). A WAL left by an older
   * version is replayed by DuckDB on attach.
   */
  static async open(path: string, opts: { readers?: number; threads?: number; memoryLimit?: string } = {}): Promise<Database> {
    const threads = Math.max(1, Math.floor(Number(opts.threads ?? process.env.PERPS_DUCKDB_THREADS ?? 2)) || 2);
    const bulkLimit = opts.memoryLimit ?? process.env.PERPS_DUCKDB_MEMORY ?? '2GB';
    const instance = await DuckDBInstance.create(':memory:', {
      // PERPS_DUCKDB_THREADS: DuckDB's worker threads (default 2)
      threads: String(threads),
      // PERPS_DUCKDB_MEMORY: DuckDB's memory_limit for bulk work (catch-up, rebuild, backfill;
      // default 2GB); a serving process lowers it once that is done (PERPS_DUCKDB_SERVE_MEMORY)
      memory_limit: bulkLimit,
      // a bulk process keeps what its allocator freed for the next chunk (server/db/bulk-allocator.ts)
      ...allocatorOptions(),
      // where a query that outgrows memory spills (a sort of the lifecycle store, a large rebuild
      // chunk): beside the state file, as DuckDB does for a file database. The instance itself is
      // in memory, whose default is `.tmp` under the working directory: the repository under `npm start`.
      ...(path === ':memory:' ? {} : { temp_directory: `${path}.tmp` }),
    });
    const db = new Database(instance, path, threads, bulkLimit);
    const recovery = path === ':memory:' ? '' : ' (RECOVERY_MODE NO_WAL_WRITES)';
    // attached once for the instance (on what becomes the writer); every connection then makes it
    // its default (db.connect)
    const writer = await instance.connect();
    await writer.run(`ATTACH '${path.replaceAll("'", "''")}' AS state${recovery}`);
    await writer.run('USE state');
    db.writer = { conn: writer, statements: new Map() };
    db.journal = await db.connect();
    // A journal commit writes one file per (protocol, day) in one partitioned COPY; past this
    // many open files DuckDB would split a partition into several files.
    for (const c of [db.writer.conn, db.journal]) await c.run('SET partitioned_write_max_open_files = 10000');
    // The append path stages a batch in an in-memory database every connection of the instance
    // sees (server/journal/stage.ts), so the journal connection can write it to Parquet while the
    // writer folds it into the derived state; the writer finds its tables by unqualified name.
    await db.writer.conn.run("ATTACH ':memory:' AS stage");
    await db.writer.conn.run("SET search_path = 'state.main,stage.main'");
    // DuckDB's own checkpoints: every 16 MB of changes (the default) rewrote the derived tables
    // over and over during a backfill (16 of 98 s); checkpoint less often.
    await db.writer.conn.run("SET checkpoint_threshold = '1GB'");
    // No FSST for the derived tables' strings: on tx signatures, addresses and position keys
    // (base58, near-unique) it saved < 1 % of the file yet cost a fifth of every insert into
    // `fills` (3M fills: 4.0 → 3.3 s); dictionary compression still takes the repetitive ones.
    // (As a DuckDBInstance.create option it did not reach the attached file's checkpoints.)
    await db.writer.conn.run("SET GLOBAL disabled_compression_methods = 'fsst'");
    for (let i = 0; i < (opts.readers ?? 4); i++) {
      db.idle.push({ conn: await db.connect(), statements: new Map() });
    }
    return db;
  }

  /** A new connection of the instance whose default database is the derived state (`state`);
   * the caller closes it. A bare `instance.connect()` would default to an empty in-memory one. */
  async connect(): Promise<DuckDBConnection> {
    const conn = await this.instance.connect();
    await conn.run('USE state');
    return conn;
  }

  private acquire(): Promise<PooledConnection> {
    const c = this.idle.pop();
    if (c) return Promise.resolve(c);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(c: PooledConnection): void {
    const next = this.waiters.shift();
    if (next) next(c);
    else this.idle.push(c);
  }

  /** Runs `sql/<name>.sql` on a pooled reader connection with bound parameters. */
  async query<N extends string>(name: N, params: ParamsFor<N> = {} as ParamsFor<N>): Promise<RowFor<N>[]> {
    const pc = await this.acquire();
    try {
      return (await runOn(pc, name, sqlFile(name), params)) as RowFor<N>[];
    } finally {
      this.release(pc);
    }
  }

  /** Runs literal read-only SQL with bound parameters (tests and tools; the service uses files). */
  async querySql(sql: string, params: Params = {}): Promise<Row[]> {
    const pc = await this.acquire();
    try {
      return plainRowsOf(await pc.conn.run(sql, bindValues(sql, params)));
    } finally {
      this.release(pc);
    }
  }

  /**
   * Runs `sql/<name>.sql` on a pooled reader and hands its rows to `onChunk` one DuckDB chunk
   * (≤ 2048 rows) at a time, as they are read: a large result never exists as one array of row
   * objects (tens of thousands of them cost hundreds of MB of JS heap at their peak).
   */
  async queryChunks<N extends string>(name: N, params: ParamsFor<N>, onChunk: (rows: RowFor<N>[]) => void): Promise<void> {
    await this.queryChunkColumns(name, params, (chunk, names) => {
      const rows: Row[] = [];
      appendPlainRows(chunk, names, rows);
      onChunk(rows as RowFor<N>[]);
    });
  }

  /**
   * Runs `sql/<name>.sql` on a pooled reader and hands each DuckDB chunk (≤ 2048 rows) to
   * `onChunk` as it is read, as the chunk itself (with the column names): for bulk readers of
   * numeric columns, which take DOUBLE vectors' data as they are (no row objects, no per-value
   * conversion).
   */
  async queryChunkColumns<N extends string>(name: N, params: ParamsFor<N>, onChunk: (chunk: DuckDBDataChunk, names: string[]) => void): Promise<void> {
    const pc = await this.acquire();
    try {
      const sql = sqlFile(name);
      const stmt = await pc.conn.prepare(sql);
      try {
        bindParams(stmt, sql, params);
        const result = await stmt.stream();
        const names = result.columnNames();
        for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) onChunk(chunk, names);
      } finally {
        stmt.destroySync();
      }
    } finally {
      this.release(pc);
    }
  }

  /**
   * Sets DuckDB's serving memory limit (e.g. `1GB`) for the whole instance: at once, unless a heavy
   * read-side build runs under the bulk limit (then when the last one ends, see
   * {@link underBulkMemory}). Lowering it evicts cached blocks down to it. The serving process
   * builds with a larger limit than it serves with (see `start`).
   */
  async setMemoryLimit(limit: string): Promise<void> {
    if (!isMemoryLimit(limit)) throw new Error(`memory limit "${limit}": expected e.g. 1GB or 512MiB`);
    if (this.bulkBuilds === 0) await this.write((w) => w.exec(`SET memory_limit = '${limit}'`));
    this.servingLimit = limit;
  }

  /**
   * Runs `build` (a heavy read-side build: a lifecycle-store segment, the history read index)
   * under the bulk memory limit the instance opened with, one build at a time, then goes back to
   * the serving limit once no build waits. Under the serving limit the first store build of a large
   * journal ran DuckDB out of memory, and every query beside it too; two stores built side by side
   * ran it out of the bulk limit as well (docs/performance.md, "Memory settings").
   */
  async underBulkMemory<T>(build: () => Promise<T>): Promise<T> {
    this.bulkBuilds += 1;
    const turn = this.bulkTurn.then(async () => {
      if (this.servingLimit !== null && !this.bulkLimitSet) {
        await this.write((w) => w.exec(`SET memory_limit = '${this.bulkLimit}'`));
        this.bulkLimitSet = true;
      }
      return build();
    });
    this.bulkTurn = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      this.bulkBuilds -= 1;
      // the serving limit again, whether set before the builds (raised for them) or while they ran
      if (this.bulkBuilds === 0) {
        this.bulkLimitSet = false;
        if (this.servingLimit !== null && !this.closing) await this.restoreServingLimit(this.servingLimit);
      }
    }
  }

  /**
   * Lowers the limit back to `limit` after a build. DuckDB refuses while it cannot free that much
   * yet (changes of the build not yet checkpointed): then tried again in the background every 15 s,
   * as `start` does with its first serving limit, until it holds, a build begins or the database closes.
   */
  private async restoreServingLimit(limit: string): Promise<void> {
    const attempt = () => this.write((w) => w.exec(`SET memory_limit = '${limit}'`));
    try {
      await attempt();
      return;
    } catch (err) {
      log.info(`DuckDB memory limit: back to ${limit} after a read-side build once DuckDB can free enough (${(err as Error).message.split('\n')[0]})`);
    }
    let tries = 0;
    const timer = setInterval(() => {
      if (this.bulkBuilds > 0 || this.closing || this.servingLimit !== limit || ++tries > 60) {
        clearInterval(timer);
        return;
      }
      attempt().then(
        () => clearInterval(timer),
        () => undefined,
      );
    }, 15_000);
    timer.unref();
  }

  /**
   * Holds heavy read-side builds (the lifecycle store's segments and the history read index's
   * rebuild: each reads every closed lifecycle) until the returned function is called. A server with
   * a backfilling source holds them until the backfill is done and the serving memory limit is set:
   * beside the backfill, at the build limit, the store's first build ran DuckDB out of memory at
   * every start (the process at ~2.7 GB) and the index's rebuild took it to ~2.6 GB.
   */
  holdReadBuilds(): () => void {
    let release!: () => void;
    this.readBuilds = new Promise((resolve) => (release = resolve));
    return release;
  }

  /** Resolves once heavy read-side builds may run (at once unless {@link holdReadBuilds} holds them). */
  readBuildsAllowed(): Promise<void> {
    return this.readBuilds;
  }

  /** Runs `sql/<name>.sql` and returns its first row (or undefined). */
  async queryOne<N extends string>(name: N, params: ParamsFor<N> = {} as ParamsFor<N>): Promise<RowFor<N> | undefined> {
    return (await this.query(name, params))[0];
  }

  /**
   * Runs `fn` with the writer connection, after every earlier write finished. Writes never run
   * concurrently; readers keep reading the last committed state meanwhile (DuckDB MVCC).
   */
  write<T>(fn: (w: Writer) => Promise<T>): Promise<T> {
    const run = this.writeChain.then(() => fn(new Writer(this.writer, this.journal)));
    this.writeChain = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes every committed change into the database file (DuckDB's CHECKPOINT), after the writes
   * queued before it: from then on a crash keeps them. DuckDB also checkpoints on its own once
   * ~`checkpoint_threshold` of changes have piled up; the service calls this after a backfill,
   * before a journal compaction swaps files, on a schedule (jobs/service-jobs.ts) and on close.
   * `waitMs`: how long it waits, holding the writer, for reads that block it (Writer.checkpoint).
   */
  checkpoint(waitMs?: number): Promise<void> {
    return this.write((w) => w.checkpoint(waitMs));
  }

  /**
   * Runs `stop` when {@link close} begins (at once if it has): for background work over this
   * database that must not outlive it, such as a timer that reads it (server/main/app.ts).
   */
  onClose(stop: () => void): void {
    if (this.closing) runCloseHook(stop);
    else this.closeHooks.push(stop);
  }

  /** Checkpoints (see {@link checkpoint}) and closes; later calls share the first one's promise. */
  close(): Promise<void> {
    if (!this.closing) for (const stop of this.closeHooks.splice(0)) runCloseHook(stop);
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    await this.checkpoint().catch((err: unknown) => {
      // nothing is lost: the state on disk is older but consistent, and the next start catches up
      log.warn(`closing the derived state without a final checkpoint: ${(err as Error).message}`);
    });
    await this.writeChain;
    for (const pc of [...this.idle, this.writer]) pc.conn.closeSync();
    this.journal.closeSync();
    this.instance.closeSync();
  }
}

/** Runs a close hook; one that throws is logged, and the close goes on. */
function runCloseHook(stop: () => void): void {
  try {
    stop();
  } catch (err) {
    log.error('a close hook of the derived-state database failed', err);
  }
}
