/**
 * The fills stream's hub (`GET /v1/stream/{protocol}/fills`, contract §7): every open socket, the live
 * fan-out from the append path, the per-account connection cap, the heartbeat and shutdown.
 *
 * Live fan-out: the append listener runs inside the append path's writer lock, so it only queues
 * the committed batch (O(1), no await); the pump starts once the append has returned. It encodes
 * each fill once (fill-json.ts: the bytes `sql/stream/fills.sql` gives a resume) and hands it to
 * the sockets whose scope matches, found through an index keyed by (protocol, market|*,
 * address|*): O(fills × matching sockets), no query. A large batch (a backfill) goes out in slices
 * of {@link YIELD_EVERY} fills with a turn of the event loop between them, each socket corked for
 * the slice (one writev, not a write per frame); nothing ever waits for a socket.
 */
import type { Hooks, Peer } from 'crossws';
import type { Fill } from '../journal/rows.ts';
import { getPlan } from '../keys/plans.ts';
import type { ApiKeyRecord } from '../keys/store.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';
import { StreamClient } from './client.ts';
import { fillRow } from './fill-json.ts';
import { CLOSE_GOING_AWAY, dataFrame, errorFrame, STREAM_ERRORS, type StreamErrorCode } from './frames.ts';
import type { StreamScope } from './scope.ts';

/** Tunables of the hub; the defaults are the contract's. Tests shorten the intervals. */
export interface StreamHubOptions {
  /** ping every peer this often (default 30 s) */
  pingMs?: number;
  /** drop a peer that sent nothing (no pong either) for this long (default 60 s) */
  silentMs?: number;
  /** unsent bytes past which a socket is closed with slow_consumer (default 1 MiB) */
  maxBufferedBytes?: number;
  /** a resume goes back at most this far in fill time (default 24 h) */
  replayHorizonMs?: number;
  /** rows per resume query (default 500) */
  replayPageSize?: number;
  /** wall clock of the heartbeat (default Date.now) */
  clock?: () => number;
  /** test seam: awaited after each full resume page (see client.ts) */
  onReplayPage?: () => Promise<void> | void;
}

/** What the upgrade request resolved to: a scope, or the problem to report after the upgrade. */
export type Resolved = { scope: StreamScope } | { problem: { code: StreamErrorCode; message: string; param?: string } };

/** fills fanned out between two turns of the event loop (so sockets flush during a burst) */
const YIELD_EVERY = 200;

const scopeKey = (protocol: string, market: string | null, address: string | null): string => `${protocol}\u0000${market ?? ''}\u0000${address ?? ''}`;

export class StreamHub {
  private readonly clients = new Set<StreamClient>();
  private readonly index = new Map<string, Set<StreamClient>>();
  private readonly perAccount = new Map<string, number>();
  private readonly inflight = new Set<Promise<unknown>>();
  /** sockets written to in the current fan-out slice (corked until its end) */
  private readonly corked = new Set<StreamClient>();
  /** last seq handed to the sockets (every fill up to it is in the derived state) */
  private published: number;
  /** committed batches not fanned out yet, in commit order */
  private readonly queue: (readonly Fill[])[] = [];
  private pumping = false;
  private closing = false;
  private readonly unsubscribe: () => void;
  private readonly timer: NodeJS.Timeout;
  private readonly opts: Required<Omit<StreamHubOptions, 'clock' | 'onReplayPage'>> & Pick<StreamHubOptions, 'onReplayPage'>;
  private readonly clock: () => number;

  constructor(
    readonly service: Service,
    opts: StreamHubOptions = {},
  ) {
    this.opts = {
      pingMs: opts.pingMs ?? 30_000,
      silentMs: opts.silentMs ?? 60_000,
      maxBufferedBytes: opts.maxBufferedBytes ?? 1024 * 1024,
      replayHorizonMs: opts.replayHorizonMs ?? 24 * 3_600_000,
      replayPageSize: opts.replayPageSize ?? 500,
      onReplayPage: opts.onReplayPage,
    };
    this.clock = opts.clock ?? Date.now;
    this.published = service.lastSeq();
    this.unsubscribe = service.onAppend((fills) => this.onAppend(fills));
    // check often enough that a silent peer goes within ~1/4 of an interval of its deadline
    const tick = Math.max(5, Math.min(1_000, Math.floor(Math.min(this.opts.pingMs, this.opts.silentMs) / 4)));
    this.timer = setInterval(() => this.heartbeat(), tick);
    this.timer.unref();
  }

  /** Open sockets now. */
  get size(): number {
    return this.clients.size;
  }

  /** Open sockets of an account now. */
  connectionsOf(account: string): number {
    return this.perAccount.get(account) ?? 0;
  }

  /** Append listener: inside the writer lock, so it only queues the batch and wakes the pump. */
  private onAppend(fills: readonly Fill[]): void {
    const last = fills[fills.length - 1];
    if (!last || this.closing) return;
    if (this.clients.size === 0 && this.queue.length === 0) {
      this.published = last.seq; // nobody to send to; a later resume reads the table
      return;
    }
    this.queue.push(fills);
    this.startPump();
  }

  private startPump(): void {
    if (this.pumping || this.closing) return;
    this.pumping = true;
    // start after the append has returned (and released the writer): the next append's DuckDB
    // work then overlaps this fan-out instead of waiting for it
    const run = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.pump())
      .finally(() => {
        this.pumping = false;
        this.inflight.delete(run);
        if (this.queue.length > 0) this.startPump(); // queued after the pump's last look
      });
    this.inflight.add(run);
  }

  /** Fans out the queued batches, every fill in seq order. */
  private async pump(): Promise<void> {
    for (let batch = this.queue.shift(); batch && !this.closing; batch = this.queue.shift()) {
      for (let i = 0; i < batch.length; i++) {
        this.dispatch(batch[i]!);
        if ((i + 1) % YIELD_EVERY === 0 && i + 1 < batch.length) {
          this.flush();
          await new Promise((resolve) => setImmediate(resolve));
          if (this.closing) return;
        }
      }
      this.flush();
    }
  }

  /** Writes out the sockets corked during the current slice. */
  private flush(): void {
    for (const client of this.corked) client.uncork();
    this.corked.clear();
  }

  private dispatch(fill: Fill): void {
    if (fill.seq <= this.published) return;
    this.published = fill.seq;
    const { protocol, market, address } = fill;
    let frame: Buffer | undefined;
    for (const key of [scopeKey(protocol, null, null), scopeKey(protocol, market, null), scopeKey(protocol, null, address), scopeKey(protocol, market, address)]) {
      const set = this.index.get(key);
      if (!set) continue;
      frame ??= dataFrame(fillRow(fill));
      for (const client of set) {
        if (client.cork()) this.corked.add(client);
        client.deliver(fill.seq, frame);
      }
    }
  }

  /**
   * The crossws hooks of one upgrade request: on open, the plan, the account's cap and the scope
   * are checked in that order (a problem is an error frame and a close), then the socket is served.
   */
  hooksFor(key: ApiKeyRecord, resolved: Resolved): Partial<Hooks> {
    let client: StreamClient | undefined;
    const seen = () => client?.seen(this.clock());
    return {
      open: (peer) => {
        client = this.open(peer, key, resolved);
      },
      message: seen,
      ping: seen,
      pong: seen,
      close: () => client?.socketDidClose(),
      error: (_peer, error) => {
        log.debug('stream: socket error', error);
        client?.gone();
      },
    };
  }

  private open(peer: Peer, key: ApiKeyRecord, resolved: Resolved): StreamClient | undefined {
    if (this.closing) {
      peer.close(CLOSE_GOING_AWAY, 'server shutting down');
      return undefined;
    }
    const plan = getPlan(key.plan);
    const count = this.connectionsOf(key.account);
    const cap = plan.streamConnectionsPerAccount;
    if (!plan.stream) {
      return reject(peer, 'plan_required', `The fills stream needs the premium plan; this key's plan is ${plan.name}.`);
    }
    if (cap !== null && count >= cap) {
      return reject(peer, 'too_many_connections', `This account already has ${count} open stream connections; its plan allows ${cap}.`);
    }
    if ('problem' in resolved) return reject(peer, resolved.problem.code, resolved.problem.message, resolved.problem.param);

    const { scope } = resolved;
    const liveFrom = this.published;
    const client = new StreamClient(peer, scope, key.account, this.opts, liveFrom, this.clock(), (c) => this.remove(c));
    this.clients.add(client);
    this.perAccount.set(key.account, count + 1);
    const k = scopeKey(scope.protocol, scope.market, scope.address);
    let set = this.index.get(k);
    if (!set) this.index.set(k, (set = new Set()));
    set.add(client);
    log.debug(`stream: open for key ${key.id} on ${k.replaceAll('\u0000', '/')}${scope.sinceSeq === null ? '' : ` from seq ${scope.sinceSeq}`}`);
    if (scope.sinceSeq !== null) {
      const run = client.replay(this.service, liveFrom).finally(() => this.inflight.delete(run));
      this.inflight.add(run);
    }
    return client;
  }

  private remove(client: StreamClient): void {
    if (!this.clients.delete(client)) return;
    const { protocol, market, address } = client.scope;
    const k = scopeKey(protocol, market, address);
    const set = this.index.get(k);
    set?.delete(client);
    if (set?.size === 0) this.index.delete(k);
    const left = (this.perAccount.get(client.account) ?? 1) - 1;
    if (left > 0) this.perAccount.set(client.account, left);
    else this.perAccount.delete(client.account);
  }

  private heartbeat(): void {
    const now = this.clock();
    for (const client of this.clients) client.heartbeat(now, this.opts.pingMs, this.opts.silentMs);
  }

  /**
   * Shutdown: stops taking appends and sockets, closes every socket with 1001, waits (at most
   * `graceMs`) for the peers to answer the close and for running queries, then terminates the rest.
   */
  async closeAll(graceMs = 2_000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.unsubscribe();
    clearInterval(this.timer);
    this.queue.length = 0;
    const clients = [...this.clients];
    for (const client of clients) client.close(CLOSE_GOING_AWAY, 'server shutting down');
    const grace = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.all([...clients.map((c) => c.socketClosed), ...this.inflight]), grace]);
    for (const client of clients) client.peer.terminate(); // no-op for a socket already closed
    await Promise.allSettled([...this.inflight]);
  }
}

/** Sends the error frame of `code` and closes with its close code. */
function reject(peer: Peer, code: StreamErrorCode, message: string, param?: string): undefined {
  peer.send(errorFrame(code, message, param));
  peer.close(STREAM_ERRORS[code], code);
  return undefined;
}
