/**
 * The response cache of the REST routes: serialized 200 bodies keyed by (route path, normalized
 * query, plan clamp), valid until an append may change them, so a cached answer is never stale.
 *
 * - **Watermark.** The generation moves on every append (the one append path's listener runs right
 *   after the commit, inside the writer lock) and every entry the append may change is dropped
 *   then: all but those whose footprint (an address, or a time before which the answer reads all
 *   it reads) none of its rows falls in (server/cache/footprint.ts). A computation that
 *   started under an older generation is not stored. (Anything else that changes derived state
 *   while serving must go through the append path, or announce it with Service `derivedChanged`,
 *   as the rollup refresh does: that drops every entry.)
 * - **Normalized params.** The validated query (valibot output: `market=sol-perp` and `SOL-PERP`
 *   are one entry), key order irrelevant, plus the request path (it carries address / id).
 * - **Clamp.** Plan-clamped routes (a `depth` in the route's cache policy, server/cache/policy.ts) key on the plan's depth
 *   for that route (plans with the same depth share entries); other routes are plan-independent.
 * - **Clock.** An answer that depends on the service clock is only cached while that dependence
 *   cannot change it: a window route (liquidation search, the history routes) with an explicit `to` at
 *   or before now and, under a plan depth, a `from` at or after the floor, until the floor would pass
 *   `from`; account history (`GET /v1/alpha/accounts/{address}/history`) only without a depth
 *   (server/cache/clock.ts). A route whose answer moves with the clock in a way it can bound
 *   declares how long its answer holds (declareValidUntil in server/cache/answer-declarations.ts:
 *   the 24 h stats until a fill leaves or enters their window; liquidation search with a defaulted
 *   `to` until a liquidation enters it or the plan's floor passes a row); that bound replaces the
 *   rules above. A history window that moves with the clock (a defaulted `to`, a `from` on the
 *   moving plan floor) is a moving answer (declareMovingAnswer): its data is kept and its envelope
 *   rendered at each hit's clock, within its bound (server/http/history-validity.ts). Any other
 *   answer that read the clock is not cached: routes get a clock-tracking view of the service
 *   ({@link ResponseCache.service}).
 *   Every entry also keeps the clock it was computed at: a clock set back never sees it.
 *   Routes read the clock before their first `await` (all do), which is where it is attributed to
 *   the request (no AsyncLocalStorage: on Node 20 its promise hooks slow every request); a read
 *   later than that cannot be attributed and turns the cache off, with a warning.
 * - Concurrent identical misses share one computation; at most `maxBytes` of bodies, the oldest
 *   dropped first, an entry served since it was stored or last passed over after the others
 *   (server/lib/second-chance-map.ts: exact LRU made a hit on a full cache cost ~13 µs more).
 * Auth, the plan gate, rate limits and credits run before the cache (server/main/app.ts).
 */
import type { H3Event } from 'h3';
import { depthDays } from '../read/window.ts';
import { clockValidity, windowOf } from './clock.ts';
import type { CachePolicy } from './policy.ts';
import { AppendImpact, declaredFootprint, windowFootprint } from './footprint.ts';
import { bodySize, keptBody, serializeResult, type Body } from './json-body.ts';
import { declaredValidUntil, markComputing, movingAnswerOf } from './answer-declarations.ts';
import { bodyAt, holds, sizeOf, unbounded, type Entry } from './cache-entry.ts';
import { canonicalOf } from './canonical-query.ts';
import { SecondChanceMap } from '../lib/second-chance-map.ts';
import type { PlanName } from '../keys/plans.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';

type Query = Record<string, unknown>;

/** A stored answer as {@link ResponseCache.peek} hands it to {@link ResponseCache.serve}. */
export type CachedAnswer = Entry;

/** Whether a computation read the service clock, and the latest value it read (epoch ms). */
interface ClockRead {
  read: boolean;
  at: number;
}

export interface CacheOptions {
  /** total body bytes kept (default 64 MiB); a body over 1/8 of it is not cached */
  maxBytes?: number;
  /** false: every request computes (the bench's uncached figures; PERPS_CACHE=0) */
  enabled?: boolean;
}

/** See the file comment. One per app. */
export class ResponseCache {
  /** the service as routes should see it: reading its clock marks the request clock-dependent */
  readonly service: Service;
  /** the clock-read flag of the handler whose synchronous part is running, if any */
  private reading: ClockRead | null = null;
  private readonly entries: SecondChanceMap<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly maxBytes: number;
  private enabled: boolean;
  private readonly unsubscribe: () => void;
  private generation = 0;
  /** hits and misses since start, and entries appends kept (tests, bench) */
  readonly stats = { hits: 0, misses: 0, kept: 0 };

  constructor(
    private readonly base: Service,
    opts: CacheOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? 64 * 1_048_576;
    this.entries = new SecondChanceMap(this.maxBytes, sizeOf);
    this.enabled = opts.enabled ?? process.env.PERPS_CACHE !== '0';
    this.service = {
      ...base,
      now: () => {
        const t = base.now();
        if (this.reading) {
          this.reading.read = true;
          this.reading.at = Math.max(this.reading.at, t);
        } else if (this.enabled) {
          // a route read the clock after an await: we cannot tell which answer depends on it
          this.enabled = false;
          this.invalidate();
          log.warn('response cache off: a route read the clock after its first await (see server/cache/response-cache.ts)');
        }
        return t;
      },
    };
    // an append drops what it may change; a job that rewrote derived buckets (the rollup refresh
    // repairing drift) drops everything
    const offAppend = base.onAppend((fills, _accounts, change) => this.afterAppend(new AppendImpact(fills, change)));
    const offChange = base.onDerivedChange((change) => {
      if (!change.append) this.invalidate();
    });
    this.unsubscribe = () => {
      offAppend();
      offChange();
    };
  }

  /**
   * Drops the entries an append may have changed (those without a footprint, or whose footprint
   * it touches: server/cache/footprint.ts); computations in flight are not stored.
   */
  private afterAppend(impact: AppendImpact): void {
    this.generation += 1;
    this.inflight.clear();
    for (const [key, entry] of this.entries) {
      if (entry.footprint && !impact.touches(entry.footprint)) {
        this.stats.kept += 1;
        continue;
      }
      this.entries.delete(key);
    }
  }

  /** Drops every entry; computations in flight are not stored. */
  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    this.inflight.clear();
  }

  /** Whether answers are cached (not with PERPS_CACHE=0, nor after a route read the clock late). */
  on(): boolean {
    return this.enabled;
  }

  /** Entries held now. */
  size(): number {
    return this.entries.size;
  }

  /** The service clock the cache judges entries by (not a clock read of any route). */
  now(): number {
    return this.base.now();
  }

  /**
   * The key of the answer to request path `pathname` (it carries address / id) of a route with cache
   * `policy`, validated `query` and the caller's `plan` (only its depth for a clamped route).
   */
  keyOf(pathname: string, policy: CachePolicy | undefined, query: Query, plan: PlanName | null): string {
    const kind = policy?.depth;
    const clamp = kind === undefined || plan === null ? '' : String(depthDays(plan, kind));
    return `${pathname}\n${canonicalOf(query)}\n${clamp}`;
  }

  /** The stored answer under `key` that holds at clock `now`, if any; changes nothing (see {@link serve}). */
  peek(key: string, now: number): CachedAnswer | undefined {
    if (!this.enabled) return undefined;
    const hit = this.entries.peek(key);
    return hit && holds(hit, now) ? hit : undefined;
  }

  /** Serves the answer `peek(key, now)` found: counts the hit, marks it recent, returns its body at `now`. */
  serve(key: string, hit: CachedAnswer, now: number): Body {
    this.stats.hits += 1;
    this.entries.touch(key); // outlives unserved entries at the next eviction
    return bodyAt(hit, now);
  }

  /**
   * The JSON body of a 200 for a route with cache `policy` and validated `query` under `plan`: from the
   * cache, or from `compute` (whose result is serialized here, exactly as h3 would).
   */
  async respond(event: H3Event, policy: CachePolicy | undefined, query: Query, plan: PlanName | null, compute: () => unknown): Promise<Body> {
    if (!this.enabled) return serializeResult(await this.track({ read: false, at: -Infinity }, compute));
    const key = this.keyOf(event.url.pathname, policy, query, plan);
    const now = this.base.now();
    const hit = this.peek(key, now);
    if (hit) return this.serve(key, hit, now);
    const pending = this.inflight.get(key);
    if (pending) {
      const shared = await pending;
      const at = this.base.now();
      if (holds(shared, at)) {
        this.stats.hits += 1;
        return bodyAt(shared, at);
      }
    }
    this.stats.misses += 1;
    const generation = this.generation;
    const computed = this.compute(event, policy, query, plan, compute);
    const run = computed.then((c) => c.entry);
    run.catch(() => undefined); // a failure reaches this request through `computed`, waiters through `run`
    this.inflight.set(key, run);
    try {
      const { entry, body } = await computed;
      if (this.enabled && generation === this.generation && holds(entry, this.base.now())) this.store(key, entry);
      return body;
    } finally {
      if (this.inflight.get(key) === run) this.inflight.delete(key);
    }
  }

  /** Runs the route; returns the answer's body and the entry that would keep it. */
  private async compute(event: H3Event, policy: CachePolicy | undefined, query: Query, plan: PlanName | null, compute: () => unknown): Promise<{ entry: Entry; body: Body }> {
    const clock: ClockRead = { read: false, at: -Infinity };
    markComputing(event);
    const result = await this.track(clock, compute);
    const footprint = declaredFootprint(event) ?? windowFootprint(policy, query, windowOf(policy, query).to);
    const fixed = (computed: Body, validFrom: number, validUntil: number) => {
      const body = keptBody(computed); // a long answer goes out as the bytes its hits will send
      return { entry: { body, size: bodySize(body), validFrom, validUntil, footprint }, body };
    };
    if (!clock.read) return fixed(serializeResult(result), -Infinity, Infinity);
    // the answer is the one at the clock the route read (`at`): valid from there on, never before
    const now = clock.at;
    const moving = movingAnswerOf(event);
    if (moving) {
      const body = moving.render(now);
      const validUntil = await moving.validUntil().catch(unbounded);
      return { entry: { render: moving.render, size: bodySize(body), validFrom: now, validUntil, footprint }, body };
    }
    const declared = declaredValidUntil(event);
    return fixed(serializeResult(result), now, declared ?? (plan === null ? -Infinity : (clockValidity(policy, query, plan, now) ?? -Infinity)));
  }

  /** Runs `compute`, attributing clock reads of its synchronous part (up to its first await) to `clock`. */
  private track(clock: ClockRead, compute: () => unknown): unknown {
    const outer = this.reading;
    this.reading = clock;
    try {
      return compute();
    } finally {
      this.reading = outer;
    }
  }

  private store(key: string, entry: Entry): void {
    const size = sizeOf(key, entry);
    if (size > this.maxBytes / 8) return;
    this.entries.set(key, entry);
  }

  /** Stops following appends. */
  close(): void {
    this.unsubscribe();
  }
}
