/**
 * The read index of the account-history and position routes (sql/schema/read-index.sql): the closed and liquidated
 * lifecycles of both protocols up to a mark (a journal seq), sorted by address, so an account's history or one
 * of its positions reads a row group or two instead of scanning every lifecycle (~35-100 ms on
 * 3.9M lifecycles). The closed lifecycles after the mark (the tail) are read from
 * `lifecycles` itself.
 *
 * Exact at every mark: a closed lifecycle never changes (a fill joins only the open lifecycle of its
 * position), so "in the index, or closed after the mark" is every closed lifecycle exactly once.
 * The mark the route binds only ever grows, and only after the rebuild that set it committed, so a
 * query never sees an index older than its mark (a newer one is fine: its rows past the bound mark
 * are skipped by `last_seq <= mark` and read from the tail instead).
 *
 * Rebuilt whole (one transaction on the writer: appends wait meanwhile; ~1 s per 150k closed
 * lifecycles) when the tail has grown past {@link HistoryIndexOptions.rebuildAfter} lifecycles:
 * checked when the index opens and after appends, the rebuild running in the background, and
 * held back while bulk appends (a backfill) keep coming, so a backfill pays for one rebuild.
 */
import { log } from '../../lib/log.ts';
import { readWatermark } from '../../derive/apply.ts';
import type { Service } from '../../service.ts';

export interface HistoryIndexOptions {
  /** rebuild once this many closed lifecycles (both protocols) lie after the mark (default 20,000) */
  rebuildAfter?: number;
  /** an append of at least `fills` fills holds rebuilds back for `quietMs` (default 10,000 and 15 s) */
  bulk?: { fills: number; quietMs: number };
}

/** An append with this many fills is bulk work (a backfill, a catch-up of a source). */
const BULK_APPEND = 10_000;
/**
 * How long after a bulk append a rebuild waits (re-armed by each bulk append). A backfill's
 * batches grow to ~10 s apart: with 5 s the default set's backfill under `npm start` paid for a
 * rebuild halfway (5.7 s beside the appends) and another at the end.
 */
const BULK_QUIET_MS = 15_000;

/** How long a failed rebuild waits before the next try. */
const FAILED_QUIET_MS = 60_000;

/** See the file comment. One per route list, shared by both protocols' routes. */
export class HistoryIndex {
  private markNow = 0;
  /** closed lifecycles (both protocols) after the mark: counted at open, then from appended close fills */
  private tail = 0;
  private opened: Promise<void> | null = null;
  /** the mark and tail are read (or could not be: the index then stays empty) */
  private known = false;
  private building: Promise<void> | null = null;
  private readonly rebuildAfter: number;
  private readonly bulk: { fills: number; quietMs: number };
  /** no rebuild before this time (epoch ms): a bulk append (a backfill) came recently */
  private quietFrom = 0;
  private recheck: NodeJS.Timeout | undefined;
  private readonly rebuiltListeners: ((mark: number) => void)[] = [];

  constructor(
    private readonly service: Service,
    opts: HistoryIndexOptions = {},
  ) {
    this.rebuildAfter = opts.rebuildAfter ?? 20_000;
    this.bulk = opts.bulk ?? { fills: BULK_APPEND, quietMs: BULK_QUIET_MS };
  }

  /**
   * Reads the mark and the tail, follows appends, and starts a rebuild when the tail is long
   * (the app does this at start-up; otherwise the first request does). Idempotent.
   */
  open(): Promise<void> {
    if (this.opened) return this.opened;
    this.service.onAppend((fills) => {
      for (const f of fills) if (f.type === 'close' || f.type === 'liquidation') this.tail += 1;
      // a backfill's appends come back to back: one rebuild after them, not one per 20,000 closes
      if (fills.length >= this.bulk.fills) this.quietFrom = Date.now() + this.bulk.quietMs;
      this.maybeRebuild();
    });
    this.opened = this.service.db
      .queryOne('read/lifecycles/index/history-mark-get')
      .then((row) => {
        this.markNow = Number(row?.mark ?? 0);
        this.tail += Number(row?.tail ?? 0);
        this.maybeRebuild();
      })
      .finally(() => {
        this.known = true;
      });
    this.opened.catch((err) => log.warn('history index: could not read its mark; reading lifecycles only', err));
    return this.opened;
  }

  /** The mark to bind (0 until the index is known to hold anything). */
  async mark(): Promise<number> {
    await this.open().catch(() => undefined);
    return this.markNow;
  }

  /**
   * Whether the index is behind what it should hold: its mark not read yet, a rebuild under way, or one
   * due (the tail past `rebuildAfter`, waiting for a backfill's quiet or for the heavy-build gate).
   * `GET /v1/alpha/accounts/{address}/history` and `GET /v1/alpha/positions/{address}/{id}` then read
   * more from `lifecycles` (`/health`'s `read_side.warming`).
   */
  behind(): boolean {
    return !this.known || this.building !== null || this.tail >= this.rebuildAfter;
  }

  /** Calls `listener` with the new mark after each rebuild (the lifecycle store follows it). */
  onRebuilt(listener: (mark: number) => void): void {
    this.rebuiltListeners.push(listener);
  }

  /**
   * Rebuilds now (tests, and the background rebuild), or once the database allows heavy read-side
   * builds (Database.holdReadBuilds: not beside a source's backfill, where this rebuild of every
   * closed lifecycle, at the build memory limit, took the process to ~2.6 GB after a `rebuild`),
   * under the bulk memory limit (Database.underBulkMemory); resolves once the new mark is in use.
   */
  rebuild(): Promise<void> {
    const db = this.service.db;
    this.building ??= db
      .readBuildsAllowed()
      .then(() =>
        db.underBulkMemory(() =>
          db.write(async (w) => {
            await w.exec('BEGIN TRANSACTION');
            try {
              const { seq } = await readWatermark(w);
              await w.run('read/lifecycles/index/history-clear');
              await w.run('read/lifecycles/index/history-fill', { mark: seq });
              await w.run('read/lifecycles/index/history-mark-clear');
              await w.run('read/lifecycles/index/history-mark-set', { mark: seq });
              await w.exec('COMMIT');
              return seq;
            } catch (err) {
              await w.exec('ROLLBACK').catch(() => undefined);
              throw err;
            }
          }),
        ),
      )
      .then((seq) => {
        // closes appended while the rebuild waited for the writer are in the index now; later ones
        // are counted by the listener again (an over-count only brings the next rebuild forward)
        this.tail = 0;
        if (seq > this.markNow) this.markNow = seq;
        for (const listener of this.rebuiltListeners) listener(this.markNow);
      })
      .finally(() => {
        this.building = null;
      });
    return this.building;
  }

  private maybeRebuild(): void {
    if (this.building || this.tail < this.rebuildAfter) return;
    const wait = this.quietFrom - Date.now();
    if (wait > 0) {
      clearTimeout(this.recheck);
      this.recheck = setTimeout(() => this.maybeRebuild(), wait + 10);
      this.recheck.unref(); // never what keeps the process alive
      return;
    }
    const t0 = performance.now();
    this.rebuild().then(
      () => log.info(`history index: rebuilt up to seq ${this.markNow} in ${((performance.now() - t0) / 1000).toFixed(1)} s`),
      (err) => {
        this.quietFrom = Date.now() + FAILED_QUIET_MS; // not again on every append
        log.warn('history index: rebuild failed; the previous index stays in use', err);
      },
    );
  }
}
