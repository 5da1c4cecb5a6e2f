/**
 * `GET /v1/{protocol}/liquidations/search`'s working set: every liquidation event of one protocol, as the search serves it, held
 * in memory in (time, seq) order, one list per filter scope, each row as its JSON bytes (~72k events
 * on the bench journal: ~34 MB of bytes outside the JS heap). A search is then a binary search for its upper bound in its
 * scope's list and a walk towards older events, instead of one to three DuckDB queries of 4-15 ms
 * each.
 *
 * Never stale: events only ever come through appends, each with a seq above every earlier one, so
 * "seq > the last one loaded" is exactly what an append added (whatever its time: an older event
 * is inserted at its place). An append with liquidations of the protocol marks the index behind; the next
 * search first reads those rows (one small query, sql/read/liquidations/alpha-liquidations-after.sql), so the
 * rows are DuckDB's own, never recomputed from the appended values. Until the first load is done
 * (it starts with the app), and if a load fails, the route answers from SQL.
 *
 * The order is the SQL's: time desc (µs), then seq desc; the bounds compare µs with the bound's ms
 * times 1,000, as the SQL compares the TIMESTAMP with epoch_ms(bound).
 */
import type { Row } from '../../db/database.ts';
import { log } from '../../lib/log.ts';
import type { Service } from '../../service.ts';
import { waitUntil } from '../../lib/waiting.ts';
import type { Protocol } from '../../journal/rows.ts';

/** One search, as sql/api/alpha-liquidations-search.sql takes it (null: no such bound). */
export interface LiquidationSearch {
  market: string | null;
  market_variant: string | null;
  from: number | null;
  to: number | null;
  after_time: number | null;
  after_seq: number | null;
  fetch: number;
}

/**
 * One liquidation event as `GET /v1/alpha/liquidations/search` serves it: its sort keys and its row of
 * `data` as the UTF-8 of its JSON (the SQL row without `time_ms` and `seq`, serialized once: a 500-row
 * page is then a copy of bytes instead of a serialization of its rows, see server/cache/json-body.ts and
 * docs/performance.md, "Answers kept as bytes").
 */
export interface ServedLiquidation {
  time_ms: number;
  seq: number;
  json: Buffer;
}

/** A row of sql/api/alpha-liquidations-search.sql (or -after.sql, whose `time_us` is dropped too) as served. */
export function servedOf(r: Row): ServedLiquidation {
  const { time_ms, seq, time_us: _us, ...row } = r;
  return { time_ms: time_ms as number, seq: seq as number, json: Buffer.from(JSON.stringify(row)) };
}

interface Event {
  /** the sort key: the event time in epoch µs, then seq */
  us: number;
  served: ServedLiquidation;
}

/** (us, seq) of `e` compared with (us, seq): negative when e is older. */
const compare = (e: Event, us: number, seq: number): number => (e.us !== us ? e.us - us : e.served.seq - seq);

/** The scope keys of the lists an event of `market` / `variant` belongs to (distinct: a null variant is no scope of its own). */
const scopeKeys = (market: string, variant: string | null): Set<string> => new Set([scopeKey(null, null), scopeKey(market, null), scopeKey(null, variant), scopeKey(market, variant)]);
/** The list key of a search's scope (null: not filtered on). */
const scopeKey = (market: string | null, variant: string | null): string => `${market ?? '*'}\u0000${variant ?? '*'}`;

/** The number of events of `list` strictly older than (us, seq). */
function olderThan(list: readonly Event[], us: number, seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(list[mid]!, us, seq) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** See the file comment. One per route list and protocol. */
export class LiquidationIndex {
  /**
   * The events of each scope (every event, per market, per variant, per (market, variant)), each
   * list ascending by (time, seq), newest last: a search walks only its scope's events (a rare
   * market's 500-row page walked all ~72k events of the bench journal, 0.65-0.95 ms)
   */
  private scopes = new Map<string, Event[]>();
  private lastSeq = 0;
  private isLoaded = false;
  /** an append brought liquidations not read yet */
  private behind = false;
  private reading: Promise<void> | null = null;
  private opened = false;
  /** after a failed load: no new one before this (epoch ms) */
  private retryAt = 0;

  constructor(
    private readonly service: Service,
    readonly protocol: Protocol = 'alpha',
  ) {}

  /** Follows appends and starts the first load (in the background). Idempotent. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.service.onAppend((fills) => {
      if (fills.some((f) => f.protocol === this.protocol && f.type === 'liquidation')) this.behind = true;
    });
    this.behind = true;
    void this.catchUp();
  }

  /** Reads the events after the last one loaded (all of them the first time); requests wait for it. */
  private catchUp(): Promise<void> {
    this.reading ??= (async () => {
      while (this.behind) {
        this.behind = false;
        const t0 = performance.now();
        const rows = await this.service.db.query('read/liquidations/alpha-liquidations-after', { protocol: this.protocol, after_seq: this.lastSeq });
        for (const r of rows) this.insert(r);
        if (!this.isLoaded) log.debug(`${this.protocol} liquidation index: ${rows.length} events loaded in ${(performance.now() - t0).toFixed(0)} ms`);
        this.isLoaded = true;
      }
    })()
      .catch((err) => {
        log.warn(`${this.protocol} liquidation index: load failed; GET /v1/${this.protocol}/liquidations/search answers from SQL meanwhile, a reload follows in a minute`, err);
        this.isLoaded = false;
        this.scopes = new Map();
        this.lastSeq = 0;
        this.retryAt = Date.now() + 60_000;
      })
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  private insert(r: Row): void {
    const e: Event = { us: r.time_us as number, served: servedOf(r) };
    const seq = e.served.seq;
    if (seq > this.lastSeq) this.lastSeq = seq;
    for (const key of scopeKeys(r.market as string, r.market_variant as string | null)) {
      let list = this.scopes.get(key);
      if (!list) this.scopes.set(key, (list = []));
      if (list.length === 0 || compare(list[list.length - 1]!, e.us, seq) < 0)
        list.push(e); // the usual case: the newest
      else list.splice(olderThan(list, e.us, seq), 0, e);
    }
  }

  /** Whether the index answers now (false until loaded; `/health`'s `read_side.warming`). */
  warm(): boolean {
    return this.isLoaded;
  }

  /** Resolves once the index answers (tests, which want the in-memory path from the first request). */
  loaded(timeoutMs?: number): Promise<void> {
    this.open();
    return waitUntil(() => this.isLoaded && !this.reading, 'liquidation index', timeoutMs);
  }

  /** The time (epoch ms) of the newest event held; null until loaded, -Infinity when none. */
  newestTime(): number | null {
    if (!this.isLoaded) return null;
    return this.scopes.get(scopeKey(null, null))?.at(-1)?.served.time_ms ?? -Infinity;
  }

  /** The search's rows (the SQL's exactly, newest first, at most `fetch`, as {@link servedOf} gives them), or null when the route must run the SQL. */
  async search(q: LiquidationSearch): Promise<readonly ServedLiquidation[] | null> {
    this.open();
    if (!this.isLoaded) {
      if (!this.reading && Date.now() >= this.retryAt) {
        this.behind = true;
        void this.catchUp();
      }
      return null; // loading: the SQL answers meanwhile
    }
    if (this.behind || this.reading) await this.catchUp(); // an append's rows, read before answering
    if (!this.isLoaded) return null;
    const list = this.scopes.get(scopeKey(q.market, q.market_variant));
    if (!list) return [];
    // the newest event that may match: older than `to` and than the cursor
    let end = list.length;
    if (q.to !== null) end = Math.min(end, olderThan(list, q.to * 1000, -Infinity));
    if (q.after_time !== null && q.after_seq !== null) end = Math.min(end, olderThan(list, q.after_time * 1000, q.after_seq));
    const floor = q.from === null ? -Infinity : q.from * 1000;
    const out: ServedLiquidation[] = [];
    for (let i = end - 1; i >= 0 && out.length < q.fetch; i--) {
      const e = list[i]!;
      if (e.us < floor) break;
      out.push(e.served);
    }
    return out;
  }
}
