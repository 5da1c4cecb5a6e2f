/**
 * Endpoint 5's working set (issue 7): every alpha liquidation event, as the search serves it, held
 * in memory in (time, seq) order (tens of thousands of rows on the bench journal, ~25 MB). A search
 * is then a binary search for its upper bound and a walk towards older events applying the
 * filters, instead of one to three DuckDB queries of 4-15 ms each.
 *
 * Never stale: events only ever come through appends, each with a seq above every earlier one, so
 * "seq > the last one loaded" is exactly what an append added (whatever its time: an older event
 * is inserted at its place). An append with alpha liquidations marks the index behind; the next
 * search first reads those rows (one small query, sql/api/alpha-liquidations-after.sql), so the
 * rows are DuckDB's own, never recomputed from the appended values. Until the first load is done
 * (it starts with the app), and if a load fails, the route answers from SQL.
 *
 * The order is the SQL's: time desc (µs), then seq desc; the bounds compare µs with the bound's ms
 * times 1,000, as the SQL compares the TIMESTAMP with epoch_ms(bound).
 */
import type { Row } from '../db/database.ts';
import { log } from '../log.ts';
import type { Service } from '../service.ts';
import { waitUntil } from './waiting.ts';

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

interface Event {
  us: number;
  seq: number;
  row: Row;
}

/** (us, seq) of `e` compared with (us, seq): negative when e is older. */
const compare = (e: Event, us: number, seq: number): number => (e.us !== us ? e.us - us : e.seq - seq);

/** The count keys an event of `market` / `variant` adds to. */
const countKeys = (market: string, variant: string | null): string[] => [
  filterKey(null, null), filterKey(market, null), filterKey(null, variant), filterKey(market, variant),
];
/** The count key of a search's scope (null: not filtered on). */
const filterKey = (market: string | null, variant: string | null): string => `${market ?? '*'}\u0000${variant ?? '*'}`;

/** See the file comment. One per route list. */
export class LiquidationIndex {
  /** ascending (time, seq): newest last */
  private events: Event[] = [];
  /** events per market, per variant and per (market, variant): a filter nothing matches walks nothing */
  private counts = new Map<string, number>();
  private lastSeq = 0;
  private isLoaded = false;
  /** an append brought liquidations not read yet */
  private behind = false;
  private reading: Promise<void> | null = null;
  private opened = false;
  /** after a failed load: no new one before this (epoch ms) */
  private retryAt = 0;

  constructor(private readonly service: Service) {}

  /** Follows appends and starts the first load (in the background). Idempotent. */
  open(): void {
    if (this.opened) return;
    this.opened = true;
    this.service.onAppend((fills) => {
      if (fills.some((f) => f.protocol === 'alpha' && f.type === 'liquidation')) this.behind = true;
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
        const rows = await this.service.db.query('api/alpha-liquidations-after', { after_seq: this.lastSeq });
        for (const r of rows) this.insert(r);
        if (!this.isLoaded) log.debug(`liquidation index: ${rows.length} events loaded in ${(performance.now() - t0).toFixed(0)} ms`);
        this.isLoaded = true;
      }
    })().catch((err) => {
      log.warn('liquidation index: load failed; endpoint 5 answers from SQL meanwhile, a reload follows in a minute', err);
      this.isLoaded = false;
      this.events = [];
      this.counts = new Map();
      this.lastSeq = 0;
      this.retryAt = Date.now() + 60_000;
    }).finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private insert(r: Row): void {
    const { time_us: us, ...row } = r;
    const e: Event = { us: us as number, seq: row.seq as number, row };
    if (e.seq > this.lastSeq) this.lastSeq = e.seq;
    for (const k of countKeys(row.market as string, row.market_variant as string | null)) this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
    let i = this.events.length;
    if (i === 0 || compare(this.events[i - 1]!, e.us, e.seq) < 0) {
      this.events.push(e); // the usual case: newer than every event held
      return;
    }
    i = this.upper(e.us, e.seq);
    this.events.splice(i, 0, e);
  }

  /** The number of events strictly older than (us, seq). */
  private upper(us: number, seq: number): number {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.events[mid]!, us, seq) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
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
    return (this.events.at(-1)?.row.time_ms as number | undefined) ?? -Infinity;
  }

  /** The search's rows (the SQL's exactly, newest first, at most `fetch`), or null when the route must run the SQL. */
  async search(q: LiquidationSearch): Promise<Row[] | null> {
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
    if (!this.counts.get(filterKey(q.market, q.market_variant))) return [];
    // the newest event that may match: older than `to` and than the cursor
    let end = this.events.length;
    if (q.to !== null) end = Math.min(end, this.upper(q.to * 1000, -Infinity));
    if (q.after_time !== null && q.after_seq !== null) end = Math.min(end, this.upper(q.after_time * 1000, q.after_seq));
    const floor = q.from === null ? -Infinity : q.from * 1000;
    const out: Row[] = [];
    for (let i = end - 1; i >= 0 && out.length < q.fetch; i--) {
      const e = this.events[i]!;
      if (e.us < floor) break;
      if (q.market !== null && e.row.market !== q.market) continue;
      if (q.market_variant !== null && e.row.market_variant !== q.market_variant) continue;
      out.push({ ...e.row });
    }
    return out;
  }
}
