import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlFile } from './sql-files.ts';
import type { ParamsFor } from './typed-calls.ts';
import { bindValues, runOn, type Params, type PooledConnection, type Row, type StagingPlace } from './run-sql.ts';
import { plainRowsOf } from './chunk-rows.ts';

/** How long a checkpoint waits for the reads that block it (see {@link Writer.checkpoint}). */
const CHECKPOINT_WAIT_MS = 10_000;
/** DuckDB's refusal of a checkpoint while other transactions hold the checkpoint lock. */
const BLOCKED_CHECKPOINT = /Cannot CHECKPOINT: there are other write transactions active/;

/** The writer connection as handed to Database.write (server/db/database.ts). */
export class Writer {
  constructor(
    private readonly pc: PooledConnection,
    private readonly journalConnection: DuckDBConnection,
  ) {}

  /** A second connection, for the journal commit of the batch the writer is deriving meanwhile:
   * it reads the shared staging tables by their qualified names (server/journal/commit.ts). */
  get journal(): DuckDBConnection {
    return this.journalConnection;
  }

  get connection(): DuckDBConnection {
    return this.pc.conn;
  }

  /** Where the staging tables the writer's SQL names resolve to (server/journal/stage.ts). */
  get staging(): StagingPlace {
    return this.pc.staging ?? 'shared';
  }

  /**
   * Records a switch of the staging tables' place and drops the cached prepared statements:
   * DuckDB 1.5 re-binds a cached statement whose tables changed, but a re-bound CREATE TABLE …
   * AS SELECT over a name that now resolves to another table created a table with no columns.
   */
  set staging(place: StagingPlace) {
    if (this.staging === place) return;
    for (const stmt of this.pc.statements.values()) stmt.destroySync();
    this.pc.statements.clear();
    this.pc.staging = place;
  }

  /** Runs `sql/<name>.sql` (one statement) with bound parameters. */
  async run<N extends string>(name: N, params: ParamsFor<N> = {} as ParamsFor<N>): Promise<Row[]> {
    return runOn(this.pc, name, sqlFile(name), params);
  }

  /** Runs literal SQL without parameters (DDL, transaction control, multi-statement scripts). */
  async exec(sql: string): Promise<void> {
    await this.pc.conn.run(sql);
  }

  /**
   * Database.checkpoint for a caller that already holds the writer (outside a transaction).
   *
   * Waits up to `waitMs` for readers that block it. DuckDB refuses a checkpoint ("there are other
   * write transactions active") while a committed transaction that deleted or updated rows still
   * holds its share of the checkpoint lock, which it does until every read that began before its
   * commit has ended: an append's derive deletes rows, and a read of seconds (a position refresh,
   * a working set loading) then made the backfill's checkpoint throw and stop the live source
   * (test/db/database-settings.test.ts). `FORCE CHECKPOINT` would roll those reads back instead.
   */
  async checkpoint(waitMs = CHECKPOINT_WAIT_MS): Promise<void> {
    const deadline = performance.now() + waitMs;
    for (;;) {
      try {
        await this.pc.conn.run('CHECKPOINT state');
        return;
      } catch (err) {
        if (!BLOCKED_CHECKPOINT.test((err as Error).message) || performance.now() >= deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Runs literal SQL with bound parameters and returns plain rows. */
  async rows(sql: string, params: Params = {}): Promise<Row[]> {
    return plainRowsOf(await this.pc.conn.run(sql, bindValues(sql, params)));
  }
}
