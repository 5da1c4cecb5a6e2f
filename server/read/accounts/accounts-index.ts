/**
 * The working set of `GET /v1/{protocol}/accounts/search`, one per protocol: every Account of the
 * protocol (the alpha_account_held() shape: the Account and the exact parts behind
 * `GET /v1/alpha/accounts/stats`'s totals, a few tens of thousands of rows) held in memory for one
 * journal generation (./accounts-snapshot.ts), with one sorted order per (sort key, direction), all
 * built when it loads. A search is then a walk of that order applying the filters (with an address
 * prefix, of the few rows a binary search finds, sorted the same way), instead of a DuckDB query that
 * sorted every account and then read the page's rows back from storage (tens of ms, most of it
 * decompressing scattered rows).
 *
 * Never stale: only fill steps change the `accounts` table, and an append's alpha fills name every
 * alpha account it changed. So after an append with alpha fills (the append path's listener,
 * after its commit) the snapshot is patched in place: those addresses' rows (handed over by the
 * append, else read again) replace theirs in the rows and in every sorted order (a binary-search
 * insert, no re-sort). Requests wait for the patch. An append touching more than
 * {@link MAX_PATCH} addresses (a backfill) drops the snapshot instead; the app's (opened) index
 * loads it whole {@link RELOAD_QUIET_MS} after the last such append, or the next search does. Requests that were waiting for a load or patch that a later append then patches again
 * may see that later state (never an older one). The order is exactly the SQL's: the sort
 * value (a double, as served) ascending or descending, then address ascending (addresses are
 * ASCII base58, so JS string order is DuckDB's byte order); values are never NULL or NaN.
 * `GET /v1/alpha/accounts/stats` takes its totals from the same snapshot ({@link AccountsIndex.totals}).
 */
import type { Row } from '../../db/database.ts';
import { AccountTableBuilder, type AccountTable } from './account-table.ts';
import { comparator, Snapshot, type AccountSort } from './accounts-snapshot.ts';
import { totalsFromSql, type AccountTotals } from './accounts-summary.ts';
import type { Service } from '../../service.ts';
import { waitUntil } from '../../lib/waiting.ts';
import { log } from '../../lib/log.ts';
import type { Protocol } from '../../journal/rows.ts';

export type { AccountSort } from './accounts-snapshot.ts';

/** The filters and page of one search. */
export interface AccountSearch {
  sortBy: AccountSort;
  order: 'asc' | 'desc';
  minTrades: number | null;
  hasActive: boolean | null;
  search: string | null;
  offset: number;
  limit: number;
}

/** Above this many touched addresses an append reloads the snapshot rather than patching it. */
export const MAX_PATCH = 2000;

/** How long after the last append that dropped the snapshot an opened index loads it again. */
export const RELOAD_QUIET_MS = 2000;

/** Loads every account of `protocol` into a table, chunk by chunk. */
async function loadTable(service: Service, protocol: Protocol): Promise<AccountTable> {
  const builder = new AccountTableBuilder();
  await service.db.queryChunks('read/accounts/alpha-accounts-all', { protocol }, (rows) => builder.addRows(rows));
  return builder.build();
}

/** See the file comment. One per route list. */
export class AccountsIndex {
  private generation = 0;
  private current: Promise<Snapshot> | null = null;
  /** whether `current` is an append's patch (a few ms), not a whole load (about a second) */
  private currentIsPatch = false;
  /** the current generation's snapshot once loaded (`GET /v1/alpha/accounts/{address}` reads it without waiting) */
  private ready: Snapshot | null = null;
  /** whether a snapshot has loaded since {@link open} */
  private loadedOnce = false;
  /** set by {@link open}: the index reloads by itself once bulk appends stop (see {@link reloadWhenQuiet}) */
  private opened = false;
  private reloadTimer: NodeJS.Timeout | undefined;

  /**
   * @param reloadQuietMs see {@link reloadWhenQuiet} (tests shorten it)
   * @param protocol whose accounts (alpha's changed rows are handed over by the append path; beta's read again)
   */
  constructor(
    private readonly service: Service,
    private readonly reloadQuietMs = RELOAD_QUIET_MS,
    readonly protocol: Protocol = 'alpha',
  ) {
    if (protocol === 'alpha') service.watchAlphaAccounts(MAX_PATCH);
    service.onAppend((fills, handed) => {
      const touched = new Set<string>();
      for (const f of fills) if (f.protocol === protocol) touched.add(f.address);
      if (touched.size === 0) return; // snapshot-only appends and other protocols' fills change no account here
      const changed = protocol === 'alpha' ? handed : undefined;
      this.generation += 1;
      this.ready = null;
      const base = this.current;
      this.current = null;
      if (base && touched.size <= MAX_PATCH) {
        this.track(this.patch(base, touched, changed));
        this.currentIsPatch = true;
      } else this.reloadWhenQuiet();
    });
    service.db.onClose(() => {
      this.opened = false;
      clearTimeout(this.reloadTimer);
    });
  }

  /**
   * After an append that left no snapshot (a backfill's, or a start-up catch-up's), loads it again
   * once no such append came for `reloadQuietMs` (default {@link RELOAD_QUIET_MS}), rather than on the next request: that
   * request would wait for the load (`GET /v1/alpha/accounts/search`), or its neighbours would meet
   * the load's slices of the event loop (`GET /v1/alpha/accounts/stats` right after a catch-up: a
   * p99 of tens of ms on a live bench). During a
   * backfill the timer keeps moving, so no load is wasted. Only once {@link open}ed (the app's).
   */
  private reloadWhenQuiet(): void {
    if (!this.opened) return;
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      if (this.opened && !this.current) this.snapshot().catch((err: unknown) => log.warn(`accounts index: reload failed (${(err as Error).message})`));
    }, this.reloadQuietMs);
    this.reloadTimer.unref();
  }

  /**
   * `base` (a loaded or loading snapshot) with the accounts of `touched`: `changed`, the rows the
   * append handed over (append.ts watchAlphaAccounts), else read again from the derived state.
   */
  private async patch(base: Promise<Snapshot>, touched: ReadonlySet<string>, changed: readonly Row[] | undefined): Promise<Snapshot> {
    const t0 = performance.now();
    const [snap, fresh] = await Promise.all([base, changed ?? this.service.db.query('read/accounts/alpha-accounts-of', { protocol: this.protocol, addresses: [...touched].join(',') })]);
    const t1 = performance.now();
    const patched = snap.patch(touched, fresh);
    log.debug(`accounts index: ${touched.size} accounts ${changed ? 'handed over' : 'read'} in ${(t1 - t0).toFixed(1)} ms, patched in ${(performance.now() - t1).toFixed(1)} ms`);
    return patched ? snap : this.load();
  }

  /** Makes `load` the current generation's snapshot: kept (and `ready`) unless an append came meanwhile. */
  private track(load: Promise<Snapshot>): Promise<Snapshot> {
    const generation = this.generation;
    this.current = load;
    this.currentIsPatch = false;
    void load.then(
      (snap) => {
        if (this.generation === generation) this.ready = snap;
      },
      () => {
        if (this.current === load) this.current = null;
      },
    );
    return load;
  }

  private snapshot(): Promise<Snapshot> {
    // an append during the load: this snapshot serves its waiters, and the append patches it
    return this.current ?? this.track(this.load());
  }

  /** Every alpha account read anew, with every order built. */
  private async load(): Promise<Snapshot> {
    const snap = new Snapshot(await loadTable(this.service, this.protocol));
    await snap.buildAll();
    return snap;
  }

  /**
   * Starts loading the snapshot now rather than on the first request (the app does, with its other
   * working sets): a load holds the event loop in slices of up to ~25 ms (each sorted order) for
   * about a second, which requests arriving meanwhile wait out.
   */
  open(): void {
    this.opened = true;
    this.snapshot().then(
      () => void (this.loadedOnce = true),
      (err: unknown) => log.warn(`accounts index: load failed (${(err as Error).message})`),
    );
  }

  /** Whether a snapshot has loaded since {@link open} (health's `read_side.warming`). */
  warm(): boolean {
    return this.loadedOnce;
  }

  /** Resolves once a snapshot has loaded (tests, and the bench through health). */
  loaded(timeoutMs?: number): Promise<void> {
    return waitUntil(() => this.loadedOnce, 'accounts index', timeoutMs);
  }

  /**
   * `GET /v1/alpha/accounts/{address}` from the current generation's snapshot when one is loaded: the
   * account (null when the address has none); undefined when there is no loaded snapshot (ask DuckDB;
   * no load is started for a single account).
   */
  peek(address: string): Row | null | undefined {
    return this.ready ? (this.ready.get(address) ?? null) : undefined;
  }

  /**
   * The exact totals behind `GET /v1/alpha/accounts/stats`'s AccountsSummary (accounts-summary.ts
   * `summaryOf`): the snapshot's when it is loaded or an append is patching it (a few ms to wait), else
   * the SQL's (the two are the same). No load starts here: a load holds the event loop in slices for
   * about a second, and the app's index loads by itself ({@link open}, {@link reloadWhenQuiet}).
   */
  async totals(): Promise<AccountTotals> {
    let snap = this.ready;
    if (!snap && this.current && this.currentIsPatch) snap = await this.current.catch(() => null);
    const kept = snap?.totals();
    if (kept) return kept.totals;
    return totalsFromSql((await this.service.db.queryOne('read/accounts/alpha-accounts-totals', { protocol: this.protocol }))!);
  }

  /** One page of matching accounts (in order) and the number of matches. */
  async search(q: AccountSearch): Promise<{ rows: Row[]; total: number }> {
    const snap = await this.snapshot();
    const { table } = snap;
    const search = q.search?.toLowerCase() ?? null;
    const trades = table.numbers('trades');
    const open = table.numbers('open_positions');
    if (search === null && q.minTrades === null && q.hasActive === null) {
      // no filter: the page is a slice of the order, the total its length (no walk)
      const order = snap.ordered(q.sortBy, q.order);
      return { rows: Array.from(order.subarray(q.offset, q.offset + q.limit), (i) => table.row(i)), total: order.length };
    }
    // a prefix narrows the rows to a handful (a binary search); sorting them by the order's own
    // comparator puts them in the order's sequence. Without one, the built order is walked.
    // (always an Int32Array, walked by index: one array kind keeps this loop fast)
    const candidates = search === null ? snap.ordered(q.sortBy, q.order) : Int32Array.from(snap.withPrefix(search).sort(comparator(table, q.sortBy, q.order)));
    const { minTrades, hasActive, offset, limit } = q;
    const rows: Row[] = [];
    let total = 0;
    for (let j = 0; j < candidates.length; j++) {
      const i = candidates[j]!;
      if (minTrades !== null && trades[i]! < minTrades) continue;
      if (hasActive !== null && open[i]! > 0 !== hasActive) continue;
      if (total >= offset && rows.length < limit) rows.push(table.row(i));
      total += 1;
    }
    return { rows, total };
  }
}
