/**
 * The deterministic market simulator of both protocols (the `simulate` source).
 *
 * Time advances in whole minutes. Minute m, in this order:
 *  1. prices step to m (one path per index asset), cumulative factors accrue for (m − 1, m];
 *  2. from `snapshotsFrom` on: one market snapshot per variant stamped m, and at hh:59 a poll
 *     snapshot per open position (see snapshots.ts);
 *  3. the keeper liquidates, at m + 1 s and price P(m), every position whose condition holds;
 *  4. trader events of [m + 2 s, m + 60 s) run in time order (fills at P(m), the minute's oracle);
 *  5. rates in force are recomputed from the new OI and prices.
 * All randomness is drawn inside these steps, from streams in the saved state, so output depends
 * only on (options, minutes simulated): advancing in pieces, or saving and restoring in between,
 * gives exactly the rows of one advance.
 */
import type { IncomingBatch, Protocol } from '../../journal/rows.ts';
import { marketSnapshotsOf } from '../../ingest/columns.ts';
import { betaFee } from './beta-mechanics.ts';
import { PositionBook } from './book.ts';
import { Keeper } from './keeper.ts';
import { Ledger, type Op } from './ledger.ts';
import { MarketColumns } from './market-columns.ts';
import { ALPHA, VARIANTS } from './markets.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/time.ts';
import { equity } from './mechanics.ts';
import { Pools } from './pools.ts';
import { PricePaths } from './prices.ts';
import { EventKind, EventQueue } from './queue.ts';
import { Rng } from './rng.ts';
import { isPollMinute, pushMarketSnapshots } from './snapshots.ts';
import { eventTime, floorMinute, KEEPER_OFFSET_MS } from './event-times.ts';
import { DEFAULT_OPTIONS, type SimulatorOptions } from './options.ts';
import { cloneState, parseState, STATE_VERSION, type SimulatorState } from './state.ts';
import { joinsPerMinute, parseVisitRef, regularScale, TouristCache, visitRef } from './tourists.ts';
import { activityMultiplier, AliasTable, BEHAVIOUR, arrivalsPerMinute, makePopulation, planAdjust, planOpen, type Trader } from './traders.ts';
import type { Position } from './types.ts';

const ASSET_OF_VARIANT = VARIANTS.map((v) => v.assetIdx);

export class Simulator {
  private readonly opts: SimulatorOptions;
  private t: number;
  private priceRng: Rng;
  private traderRng: Rng;
  private prices: PricePaths;
  private pools: Pools;
  private queue: EventQueue;
  private book: PositionBook;
  private keeper: Keeper;
  private ledger: Ledger;
  private readonly traders: Trader[];
  private readonly pickers: Record<Protocol, AliasTable>;
  private readonly touristCache: TouristCache;
  /** tourists joined so far (the next one's index) */
  private tourists = 0;
  private readonly marketOut = new MarketColumns();
  /** index price per variant at the current minute */
  private readonly variantPrice = new Float64Array(VARIANTS.length);
  private readonly traderOf = (owner: number): Trader => (owner < this.traders.length ? this.traders[owner]! : this.touristCache.get(owner));
  private readonly addressOf = (owner: number): string => this.traderOf(owner).address;
  private readonly imbalanceOf = (v: number): number => {
    const rt = this.pools.variants[v]!;
    const total = rt.oiLong + rt.oiShort;
    return total > 0 ? (rt.oiLong - rt.oiShort) / total : 0;
  };

  constructor(opts?: Partial<SimulatorOptions>) {
    this.opts = { ...DEFAULT_OPTIONS, ...opts };
    const { seed, scale } = this.opts;
    if (!(scale > 0)) throw new Error('Simulator: scale must be > 0');
    this.opts.start = floorMinute(this.opts.start);
    this.t = this.opts.start;
    this.priceRng = new Rng(seed, 1);
    this.traderRng = new Rng(seed, 2);
    this.prices = new PricePaths();
    this.pools = new Pools(scale);
    this.pools.updateRates(this.prices.price);
    this.queue = new EventQueue();
    ({ traders: this.traders, pickers: this.pickers } = makePopulation(seed, scale));
    this.touristCache = new TouristCache(seed, this.traders.length);
    this.book = new PositionBook(seed, this.addressOf, 1, this.traders.length);
    this.keeper = new Keeper(this.pools, this.book.lists, this.t);
    this.ledger = new Ledger(seed, this.pools, this.prices, this.addressOf, 0);
  }

  /** Simulated time reached so far (epoch ms, a whole minute): every minute before it is done. */
  get time(): number {
    return this.t;
  }

  get options(): Readonly<SimulatorOptions> {
    return this.opts;
  }

  /**
   * Switches to live activity from minute `from` (default: the current one; see
   * {@link SimulatorOptions.liveFrom}). Idempotent: a simulator that went live keeps its switch,
   * so its output stays a function of (options, minutes simulated). A simulator restored from a
   * state saved before the switch is given the original `from` and `boost` again.
   */
  goLive(boost = this.opts.liveBoost, from = this.t): void {
    if (this.opts.liveFrom !== null) return;
    if (!(boost >= 1)) throw new Error('Simulator: live boost must be >= 1');
    if (from < this.t) throw new Error('Simulator: cannot go live in the past');
    this.opts.liveFrom = floorMinute(from);
    this.opts.liveBoost = boost;
  }

  /** Activity factor of live mode at time t (1 before going live). */
  private boostAt(t: number): number {
    return this.opts.liveFrom !== null && t >= this.opts.liveFrom ? this.opts.liveBoost : 1;
  }

  /**
   * Advances to `until` (floored to a minute) and returns the batches produced on the way: one
   * per UTC day touched (at most one day each), fills in time order, each with checkpoint
   * `{ simulatedTo }`. Materialises everything: for long backfills prefer {@link batches}.
   */
  advance(until: number): IncomingBatch[] {
    return [...this.batches(until)];
  }

  /**
   * The same as {@link advance}, lazily: yields each day's batch as soon as it is simulated, so a
   * backfill holds one day in memory. State (and `time`) moves as the generator is consumed;
   * stopping early leaves the simulator consistent at the last yielded day. With `columns`, each
   * batch carries its market snapshots as `marketSnapshotColumns` (no rows: what the backfill's
   * worker hands over, see market-columns.ts), else as rows.
   */
  *batches(until: number, columns = false): Generator<IncomingBatch, void, undefined> {
    const end = floorMinute(until);
    while (this.t < end) {
      const dayEnd = Math.min(end, (Math.floor(this.t / DAY_MS) + 1) * DAY_MS);
      while (this.t < dayEnd) {
        this.step(this.t);
        this.t += MINUTE_MS;
      }
      const markets = this.marketOut.take();
      const batch: IncomingBatch = {
        fills: this.ledger.out.fills,
        marketSnapshots: columns ? [] : marketSnapshotsOf(markets),
        positionSnapshots: this.ledger.out.positionSnapshots,
        checkpoint: { simulatedTo: this.t },
      };
      if (columns && markets.length) batch.marketSnapshotColumns = markets;
      this.ledger.out = { fills: [], positionSnapshots: [] };
      yield batch;
    }
  }

  /** One simulated minute (see the module comment for the order). */
  private step(m: number): void {
    if (m !== this.opts.start) {
      this.prices.step(m, this.priceRng);
      this.pools.accrue();
    }
    if (m % HOUR_MS === 0) this.pools.adaptLiquidity(this.prices.price);
    if (m >= this.opts.snapshotsFrom) {
      pushMarketSnapshots(m, this.pools, this.prices, this.marketOut);
      if (isPollMinute(m)) for (const pos of this.book.open.values()) this.ledger.out.positionSnapshots.push(this.ledger.snapshot(pos, m, 'poll'));
    }

    const vp = this.variantPrice;
    for (let v = 0; v < vp.length; v++) vp[v] = this.prices.price[ASSET_OF_VARIANT[v]!]!;
    for (const pos of this.keeper.candidates(m, vp)) {
      if (this.keeper.holds(pos, vp[pos.v]!)) {
        this.ledger.execute(pos, { kind: 'liquidate' }, m + KEEPER_OFFSET_MS);
        this.book.remove(pos);
      }
    }

    const excitement = this.prices.activity();
    const boost = this.boostAt(m);
    this.scheduleArrivals(m, 'alpha', activityMultiplier('alpha', m, excitement) * boost);
    this.scheduleArrivals(m, 'beta', activityMultiplier('beta', m, excitement) * boost);
    const end = m + MINUTE_MS;
    while (this.queue.peekTime() < end) {
      const e = this.queue.pop();
      this.handle(e.time, e.kind, e.ref);
    }

    this.pools.updateRates(this.prices.price);
  }

  private handle(t: number, kind: EventKind, ref: number): void {
    if (kind === EventKind.Arrival) {
      this.arrival(ref >> 1, ref & 1 ? 'beta' : 'alpha', t);
      return;
    }
    if (kind === EventKind.Visit) {
      this.visit(ref, t);
      return;
    }
    const pos = this.book.open.get(ref);
    if (pos === undefined) return; // the lifecycle already ended (closed or liquidated)
    if (kind === EventKind.Close) {
      this.ledger.execute(pos, { kind: 'close' }, t);
      this.book.remove(pos);
    } else this.adjust(pos, t);
  }

  /** Draws this minute's arrivals on a protocol (a Poisson count) and queues them at random seconds. */
  private scheduleArrivals(m: number, protocol: Protocol, activity: number): void {
    const rng = this.traderRng;
    const count = rng.poisson(arrivalsPerMinute(protocol, regularScale(this.opts.scale), activity));
    for (let k = 0; k < count; k++) {
      const trader = this.pickers[protocol].draw(rng);
      this.queue.push(m + (2 + rng.int(58)) * 1_000, EventKind.Arrival, trader * 2 + (protocol === 'beta' ? 1 : 0));
    }
    if (this.opts.scale <= 1) return; // no tourists, and no draws: scale 1's output is fixed
    const joins = rng.poisson(joinsPerMinute(protocol, this.opts.scale, activity));
    for (let k = 0; k < joins; k++) {
      this.queue.push(m + (2 + rng.int(58)) * 1_000, EventKind.Visit, visitRef(this.tourists++, 0, protocol));
    }
  }

  /** A tourist's visit: an arrival, then the next visit (if any) after an exponential gap. */
  private visit(ref: number, t: number): void {
    const { tourist, visit, protocol } = parseVisitRef(ref);
    const owner = this.traders.length + tourist;
    this.arrival(owner, protocol, t);
    const traits = this.touristCache.get(owner);
    if (visit + 1 >= traits.visits) return;
    const next = t + (this.traderRng.exponential(traits.gap) / this.boostAt(t)) * MINUTE_MS;
    this.queue.push(eventTime(Math.max(next, t + 1_000)), EventKind.Visit, visitRef(tourist, visit + 1, protocol));
  }

  /** A trader arrives: opens a position, or adds to it if that on-chain position is open. */
  private arrival(owner: number, protocol: Protocol, t: number): void {
    const rng = this.traderRng;
    const plan = planOpen(rng, this.traderOf(owner), protocol, this.imbalanceOf);
    const existing = this.book.find(owner, plan.variant.idx, plan.coll, plan.long);
    const feeEstimate = protocol === 'alpha' ? plan.size * ALPHA.orderFeeWorsen : betaFee(plan.size);
    if (existing !== undefined) {
      const delta = Math.min(plan.size, BEHAVIOUR.maxSizeUsd - existing.size / 1e6);
      if (delta < BEHAVIOUR.minSizeUsd) return;
      this.ledger.execute(existing, { kind: 'increase', delta, deposit: delta / plan.lev + feeEstimate }, t);
      this.keeper.touch(existing, t);
      return;
    }
    const pos = this.book.create(this.pools, owner, plan.variant, plan.coll, plan.long, plan.lev, t);
    this.ledger.execute(pos, { kind: 'increase', delta: plan.size, deposit: plan.collateral + feeEstimate }, t);
    this.keeper.touch(pos, t);
    const closeAt = t + (plan.hold / this.boostAt(t)) * MINUTE_MS;
    this.queue.push(eventTime(closeAt), EventKind.Close, pos.id);
    for (let k = 0; k < plan.adjustments; k++) {
      this.queue.push(eventTime(t + rng.float() * (closeAt - t)), EventKind.Adjust, pos.id);
    }
  }

  /** A planned adjustment; operations that would leave too little collateral become a close. */
  private adjust(pos: Position, t: number): void {
    const rt = this.pools.variants[pos.v]!;
    const p = this.variantPrice[pos.v]!;
    const view = equity(rt, pos, p);
    let op: Op | null = planAdjust(this.traderRng, {
      size: pos.size / 1e6,
      collateral: view.collateral,
      equity: view.equity,
      threshold: view.threshold,
      lev: pos.lev,
      wealth: this.traderOf(pos.owner).wealth,
    });
    if (op === null) return;
    // a partial decrease pays its fees and its share of the loss from collateral first
    if (op.kind === 'decrease' && view.equity < view.collateral * 0.05) op = { kind: 'close' };
    this.ledger.execute(pos, op, t);
    if (pos.size === 0) this.book.remove(pos);
    else this.keeper.touch(pos, t);
  }

  /** A JSON-serialisable full state (RNG, prices, cumulative factors, open positions, event queue). */
  saveState(): unknown {
    const state: SimulatorState = {
      version: STATE_VERSION,
      options: { ...this.opts },
      time: this.t,
      rng: { prices: this.priceRng.getState(), traders: this.traderRng.getState() },
      prices: this.prices.state,
      pools: this.pools.state(),
      positions: [...this.book.open.values()],
      queue: this.queue.state(),
      nextPositionId: this.book.nextId,
      nextTx: this.ledger.nextTx,
      nextFullPass: this.keeper.nextFullPass,
      tourists: this.tourists,
    };
    return cloneState(state);
  }

  /** A simulator that continues exactly where the one that produced `state` stood. */
  static restore(state: unknown): Simulator {
    const st = parseState(state);
    const sim = new Simulator(st.options);
    sim.load(st);
    return sim;
  }

  /**
   * Continues in place from `state`, saved by a simulator of the same seed and scale (e.g. the
   * one a worker thread ran ahead with): afterwards this one is exactly that one.
   */
  adopt(state: unknown): void {
    const st = parseState(state);
    if (st.options.seed !== this.opts.seed || st.options.scale !== this.opts.scale) {
      throw new Error('Simulator: cannot adopt the state of another seed or scale');
    }
    Object.assign(this.opts, st.options);
    this.marketOut.clear(); // rows not yet handed out belong to the state replaced
    this.load(st);
  }

  private load(st: SimulatorState): void {
    this.t = st.time;
    this.tourists = st.tourists;
    this.priceRng = Rng.fromState(st.rng.prices);
    this.traderRng = Rng.fromState(st.rng.traders);
    this.prices = new PricePaths(st.prices);
    this.pools = new Pools(this.opts.scale, st.pools);
    this.queue = new EventQueue(st.queue);
    this.book = new PositionBook(this.opts.seed, this.addressOf, st.nextPositionId, this.traders.length);
    this.keeper = new Keeper(this.pools, this.book.lists, st.nextFullPass);
    this.ledger = new Ledger(this.opts.seed, this.pools, this.prices, this.addressOf, st.nextTx);
    for (const pos of [...st.positions].sort((a, b) => a.id - b.id)) this.book.insert(pos);
  }
}
