import WebSocket from 'ws';
import { KeyStore } from '../../server/keys/store.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import { openLimits, type Limits } from '../../server/limits/gate.ts';
import { openService, type Service } from '../../server/service.ts';
import { startServer, type RunningServer } from '../../server/main/serve.ts';
import type { StreamHubOptions } from '../../server/stream/hub.ts';
import type { IncomingFill } from '../../server/journal/rows.ts';
import { tempDataDir } from './fixtures.ts';

/** A real server on a random port over a fresh temp service (pinned service clock). */
export interface StreamServer {
  service: Service;
  keys: KeyStore;
  limits: Limits;
  server: RunningServer;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** a raw key of `plan` (one per plan and account, created on first use) */
  key(plan: PlanName, account?: string): string;
  append(fills: IncomingFill[]): Promise<number[]>;
  close(): Promise<void>;
}

/** Opens a temp service and serves it on 127.0.0.1:0 with the stream hub options given. */
export async function openStreamServer(now: number, stream: StreamHubOptions = {}): Promise<StreamServer> {
  const { dir, cleanup } = tempDataDir();
  const service = await openService({ dataDir: dir, clock: () => now });
  const keys = KeyStore.open(dir);
  const limits = openLimits(dir, { flushMs: 0 });
  const server = await startServer({ service, keys, limits, port: 0, hostname: '127.0.0.1', stream });
  const created = new Map<string, string>();
  return {
    service,
    keys,
    limits,
    server,
    base: `http://127.0.0.1:${server.port}`,
    key(plan, account) {
      const id = `${plan}/${account ?? ''}`;
      let raw = created.get(id);
      if (raw === undefined) {
        raw = keys.create({ plan, label: `stream test ${plan}`, account: account ?? null }).key;
        created.set(id, raw);
      }
      return raw;
    },
    async append(fills) {
      const r = await service.append({ fills, marketSnapshots: [], positionSnapshots: [] });
      return r.fills.map((f) => f.seq);
    },
    async close() {
      await server.close();
      limits.close();
      await service.close();
      cleanup();
    },
  };
}

/** A parsed frame. */
export type Frame = { data?: Record<string, unknown>; error?: { code: string; message: string; param?: string } };

/** A ws client that records every frame and its close. */
export interface TestSocket {
  ws: WebSocket;
  frames: Frame[];
  /** the frames as received (text) */
  raw: string[];
  /** seqs of the data frames, in arrival order (a live array: copy it to keep a snapshot) */
  seqs(): number[];
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  /** resolves when `pred` holds (checked on every frame); rejects after `ms` */
  until(pred: () => boolean, ms?: number): Promise<void>;
}

/**
 * Connects to `base` + `path` with `key` in `x-api-key` (none when null), offering `protocols` as
 * subprotocols. `opened` rejects on a
 * non-101 answer with `status <code>`.
 */
export function connect(base: string, path: string, key: string | null, opts: WebSocket.ClientOptions = {}, protocols: string[] = []): TestSocket {
  const headers: Record<string, string> = key === null ? {} : { 'x-api-key': key };
  const ws = new WebSocket(base.replace(/^http/, 'ws') + path, protocols, { ...opts, headers: { ...headers, ...(opts.headers ?? {}) } });
  const frames: Frame[] = [];
  const raw: string[] = [];
  const seqs: number[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    const text = data.toString();
    const frame = JSON.parse(text) as Frame;
    raw.push(text);
    frames.push(frame);
    if (frame.data) seqs.push(frame.data.seq as number);
    for (const w of waiters) w();
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`status ${res.statusCode}`));
      res.resume();
    });
    ws.once('error', reject);
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const w of waiters) w();
    });
  });
  return {
    ws,
    frames,
    raw,
    seqs: () => seqs,
    opened,
    closed,
    until(pred, ms = 10_000) {
      return new Promise<void>((resolve, reject) => {
        if (pred()) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${ms} ms with ${frames.length} frames`));
        }, ms);
        const check = () => {
          if (!pred()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
  };
}
