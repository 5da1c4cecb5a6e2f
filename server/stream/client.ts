/**
 * One open stream socket: its scope, what it has been sent, its resume replay and its liveness.
 *
 * Ordering without gap or duplicate: the hub registers a client for live fills *before* its replay
 * reads the table. While the replay runs, live frames are buffered (`pending`); the replay reads
 * `(since_seq, liveFrom]`, where `liveFrom` is the last seq the hub had fanned out at registration
 * (every later fill reaches `pending`); then `pending` is drained, skipping seq ≤ the last sent.
 * Every send goes through {@link StreamClient.sendFrame}, which keeps `lastSent` and never sends a
 * seq twice.
 *
 * Back-pressure: the unsent bytes of a socket are the ws library's `bufferedAmount` plus, during a
 * replay, the pending live frames. Past `maxBufferedBytes` the client gets `slow_consumer` and is
 * closed (it can resume by seq); nothing is sent to it after that, so it costs at most that much
 * memory and never delays another socket (sends never wait). The replay itself waits for the
 * socket to drain between pages, so a large resume is paced instead of refused.
 */
import { countDrop } from './drops.ts';
import type { Peer } from 'crossws';
import type { Row } from '../db/database.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';
import { STREAM_ERRORS, dataFrame, errorFrame, type StreamErrorCode } from './frames.ts';
import type { StreamScope } from './scope.ts';

/** What a client needs from its hub. */
export interface ClientLimits {
  maxBufferedBytes: number;
  replayPageSize: number;
  replayHorizonMs: number;
  /** test seam: awaited after each replay page (tests append there to land fills mid-replay) */
  onReplayPage?: () => Promise<void> | void;
}

export class StreamClient {
  /** the highest seq sent to the socket (or the resume point before anything was sent) */
  lastSent: number;
  /** epoch ms of the last frame or pong from the peer */
  lastSeen: number;
  /** epoch ms of the last ping we sent */
  lastPing: number;
  private replaying: boolean;
  private pending: { seq: number; frame: Buffer }[] = [];
  private pendingBytes = 0;
  private closed = false;
  private corked = false;
  private markClosed!: () => void;
  /** resolves once the socket itself is closed (the close hook ran) */
  readonly socketClosed = new Promise<void>((resolve) => (this.markClosed = resolve));

  /**
   * @param liveFrom the last seq the hub had fanned out when it registered this client
   * @param onGone called once when the client stops being served (error close, or the peer left)
   */
  constructor(
    readonly peer: Peer,
    readonly scope: StreamScope,
    readonly account: string,
    private readonly limits: ClientLimits,
    liveFrom: number,
    now: number,
    private readonly onGone: (client: StreamClient) => void,
  ) {
    this.lastSent = scope.sinceSeq ?? liveFrom;
    this.replaying = scope.sinceSeq !== null;
    this.lastSeen = now;
    this.lastPing = now;
  }

  /** A live fill of the client's scope, fanned out in seq order. Never awaits. */
  deliver(seq: number, frame: Buffer): void {
    if (this.closed) return;
    if (this.replaying) {
      this.pending.push({ seq, frame });
      this.pendingBytes += frame.length;
      if (this.pendingBytes + this.peer.bufferedAmount > this.limits.maxBufferedBytes) this.fail('slow_consumer', this.slowMessage());
      return;
    }
    this.sendFrame(seq, frame);
  }

  /**
   * Replays the scope's fills in `(since_seq, liveFrom]` within the horizon, page by page, waiting
   * for the socket to drain between pages, then turns live by draining the buffered live frames.
   */
  async replay(service: Service, liveFrom: number): Promise<void> {
    const { protocol, market, address } = this.scope;
    const since = service.now() - this.limits.replayHorizonMs;
    const page = this.limits.replayPageSize;
    let after = this.lastSent;
    while (!this.closed && after < liveFrom) {
      let rows: Row[];
      try {
        rows = await service.db.query('stream/fills', { after, until: liveFrom, protocol, market, address, since_ms: since, limit: page });
      } catch (err) {
        log.error('stream: resume query failed', err);
        this.fail('internal_error', `The resume failed on the server; reconnect with since_seq=${this.lastSent}.`);
        return;
      }
      this.cork();
      for (const row of rows) this.sendFrame(row.seq as number, dataFrame(row));
      this.uncork();
      if (rows.length < page) break;
      after = rows[rows.length - 1]!.seq as number;
      await this.limits.onReplayPage?.();
      // pace a long replay by the socket: at most ~a page beyond a quarter of the limit is queued
      await this.peer.waitForDrain({ threshold: this.limits.maxBufferedBytes / 4, pollInterval: 10 });
    }
    if (this.closed) return;
    this.replaying = false;
    const pending = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    this.cork();
    for (const p of pending) this.sendFrame(p.seq, p.frame);
    this.uncork();
  }

  /**
   * Holds this socket's writes until {@link uncork}, so the frames of a slice go out in one
   * `writev` instead of one write system call each. Returns false when it was already corked.
   */
  cork(): boolean {
    if (this.corked || this.closed) return false;
    this.corked = true;
    // the ws library's socket is not public API; without it, frames are simply written one by one
    (this.peer.websocket as { _socket?: { cork?: () => void } })._socket?.cork?.();
    return true;
  }

  /** Writes out what {@link cork} held. */
  uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    (this.peer.websocket as { _socket?: { uncork?: () => void } })._socket?.uncork?.();
  }

  /** Sends a data frame unless its seq was already sent; closes a socket whose backlog is too large. */
  private sendFrame(seq: number, frame: Buffer): void {
    if (this.closed || seq <= this.lastSent) return;
    // a Buffer would go out as a binary frame: say it is text (it is UTF-8 JSON)
    this.peer.send(frame, { binary: false } as never);
    this.lastSent = seq;
    if (this.peer.bufferedAmount > this.limits.maxBufferedBytes) this.fail('slow_consumer', this.slowMessage());
  }

  private slowMessage(): string {
    return `More than ${this.limits.maxBufferedBytes} bytes are waiting to be sent to this socket; ` + `reconnect with since_seq=${this.lastSent} to resume.`;
  }

  /** Liveness: the peer sent a frame, a ping or a pong. */
  seen(now: number): void {
    this.lastSeen = now;
  }

  /**
   * Heartbeat tick: a peer silent for `silentMs` is terminated (its close comes back through the
   * close hook); otherwise it is pinged every `pingMs`.
   */
  heartbeat(now: number, pingMs: number, silentMs: number): void {
    if (this.closed) return;
    if (now - this.lastSeen >= silentMs) {
      log.debug(`stream: dropping a peer silent for ${now - this.lastSeen} ms`);
      this.peer.terminate();
      this.gone();
      return;
    }
    if (now - this.lastPing >= pingMs) {
      this.lastPing = now;
      this.peer.ping();
    }
  }

  /** Sends an error frame and closes the socket with the code the contract gives. */
  fail(code: StreamErrorCode, message: string): void {
    if (this.closed) return;
    log.debug(`stream: closing a socket: ${code}`);
    countDrop(code);
    this.peer.send(errorFrame(code, message));
    this.peer.close(STREAM_ERRORS[code], code);
    this.gone();
  }

  /** Closes without an error frame (server shutdown). */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.peer.close(code, reason);
    this.gone();
  }

  /** The close hook ran: the socket is gone. */
  socketDidClose(): void {
    this.gone();
    this.markClosed();
  }

  /** The peer is no longer served: drop buffers and tell the hub (once). */
  gone(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.onGone(this);
  }
}
