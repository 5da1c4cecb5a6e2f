/**
 * `GET /metrics`: Prometheus text (prom-client) for operators, outside `/v1` and the contract.
 * Who may read it (`PERPS_METRICS`): `local` (default) answers loopback peers only, anyone else
 * gets the usual 404; `open` answers everyone (the port is on a private network); `off` never.
 *
 * Families: requests and their latency per route template, method and status; appends (commits,
 * fills, lag from a fill's time to its commit); the journal's last seq; the source's phase,
 * backfill progress, ETA, completeness time and slot lag; the response cache's hits and misses;
 * stream clients and sockets dropped (slow consumers among them); the process's own (RSS, CPU,
 * event-loop lag, GC), from prom-client's default collectors.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Service } from '../service.ts';
import type { SourcePhase } from '../sources/source-status.ts';
import { streamDrops } from '../stream/drops.ts';
import type { StreamHub } from '../stream/hub.ts';
import type { ResponseCache } from '../cache/response-cache.ts';

export const METRICS_PATH = '/metrics';
export type MetricsMode = 'local' | 'open' | 'off';

/** The mode of a `PERPS_METRICS` value (unset: local); anything else is an error naming it. */
export function metricsModeOf(value: string | undefined): MetricsMode {
  const v = value ?? 'local';
  if (v === 'local' || v === 'open' || v === 'off') return v;
  throw new Error(`PERPS_METRICS: expected local, open or off, got "${v}"`);
}

const PHASES: readonly SourcePhase[] = ['idle', 'starting', 'backfilling', 'following', 'live', 'retrying', 'stopped'];
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;

  constructor(
    private readonly mode: MetricsMode,
    service: Service,
    cache: ResponseCache | undefined,
    stream: StreamHub | undefined,
  ) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'perps_http_requests_total', help: 'HTTP requests answered, by route template, method and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({
      name: 'perps_http_request_duration_seconds',
      help: 'Time from a request to its answer sent, by route template, method and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const commits = new Counter({ name: 'perps_append_commits_total', help: 'Appends committed to the journal', registers });
    const fills = new Counter({ name: 'perps_append_fills_total', help: 'New fills appended to the journal', registers });
    const lag = new Gauge({ name: 'perps_append_lag_seconds', help: 'At the last append with fills: commit time minus its newest fill time', registers });
    service.onAppend((appended) => {
      commits.inc();
      if (appended.length === 0) return;
      fills.inc(appended.length);
      let newest = -Infinity;
      for (const f of appended) if (f.time > newest) newest = f.time;
      lag.set(Math.max(0, (Date.now() - newest) / 1000));
    });
    new Gauge({
      name: 'perps_journal_last_seq',
      help: "The journal's last fill seq",
      registers,
      collect() {
        this.set(service.lastSeq());
      },
    });
    new Gauge({
      name: 'perps_append_last_commit_age_seconds',
      help: 'Seconds since this process last committed an append (-1: none yet)',
      registers,
      collect() {
        const at = service.appendState().lastCommitAt;
        this.set(at === undefined ? -1 : (Date.now() - at) / 1000);
      },
    });
    new Gauge({
      name: 'perps_append_stopped',
      help: '1 when the append path stopped after a failure it could not repair',
      registers,
      collect() {
        this.set(service.appendState().failure ? 1 : 0);
      },
    });
    new Gauge({
      name: 'perps_source_phase',
      help: "The source's phase (1 for the current one)",
      labelNames: ['source', 'phase'],
      registers,
      collect() {
        const s = service.source.get();
        this.reset();
        for (const p of PHASES) this.set({ source: s.source, phase: p }, p === s.phase ? 1 : 0);
      },
    });
    const sourceValue = (name: string, help: string, of: (s: ReturnType<Service['source']['get']>) => number | null) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const v = of(service.source.get());
          this.reset();
          if (v !== null) this.set(v);
        },
      });
    sourceValue('perps_source_backfill_progress', 'Share of the backfill done (0..1), while backfilling', (s) => s.progress);
    sourceValue('perps_source_backfill_eta_seconds', 'Seconds the backfill still needs', (s) => s.etaS);
    sourceValue('perps_source_complete_to_timestamp_seconds', 'Time up to which the journal is complete, while history is built', (s) => (s.completeToMs === null ? null : s.completeToMs / 1000));
    sourceValue('perps_source_slot_lag', 'solana: the tip slot minus the last slot indexed', (s) => s.slotLag);
    if (cache) {
      new Gauge({
        name: 'perps_cache_hits',
        help: 'Answers served from the response cache since start',
        registers,
        collect() {
          this.set(cache.stats.hits);
        },
      });
      new Gauge({
        name: 'perps_cache_misses',
        help: 'Answers computed (not in the response cache) since start',
        registers,
        collect() {
          this.set(cache.stats.misses);
        },
      });
      new Gauge({
        name: 'perps_cache_hit_ratio',
        help: 'Hits / (hits + misses) since start',
        registers,
        collect() {
          const n = cache.stats.hits + cache.stats.misses;
          this.set(n ? cache.stats.hits / n : 0);
        },
      });
    }
    if (stream)
      new Gauge({
        name: 'perps_stream_clients',
        help: 'Open stream (WebSocket) clients',
        registers,
        collect() {
          this.set(stream.size);
        },
      });
    new Gauge({
      name: 'perps_stream_dropped',
      help: 'Stream sockets closed by the server since start, by error code (slow_consumer: a client that does not read)',
      labelNames: ['code'],
      registers,
      collect() {
        this.reset();
        this.set({ code: 'slow_consumer' }, streamDrops.slow_consumer ?? 0);
        for (const [code, n] of Object.entries(streamDrops)) this.set({ code }, n);
      },
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'perps_' });
  }

  /** Records one answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  /** Answers `/metrics` when this peer may read it; false when the request is not for it (or not allowed: the app's 404). */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.mode === 'off') return false;
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) return false;
    if (this.mode === 'local' && !LOOPBACK.test(req.socket.remoteAddress ?? '')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'method_not_allowed', message: 'Only GET (or HEAD) is supported on this endpoint.' } }));
      return true;
    }
    this.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': this.registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'internal_error', message: 'The metrics could not be collected.' } })),
    );
    return true;
  }
}
