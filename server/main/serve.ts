/**
 * Starts the HTTP server of a service: the h3 app (REST routes and the fills stream) on srvx's Node
 * server, with the crossws plugin taking WebSocket upgrades. Used by `start` and by tests, which
 * listen on port 0 and read the port back from `url`.
 */
import { serve } from 'h3';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { plugin as websocketPlugin } from 'crossws/server/node';
import { createApp, hitLaneOf } from './app.ts';
import { markCompleteness } from '../http/completeness.ts';
import { keyIdOfRequest, openAccessLog, type AccessLog } from '../http/access-log.ts';
import { requestIdFrom } from '../http/answer-headers.ts';
import { METRICS_PATH, ServerMetrics, type MetricsMode } from '../http/metrics.ts';
import { routeLabeler, routeTemplatesOf, type RouteLabeler } from '../http/route-label.ts';
import { connectionLimitsFromEnv, guardConnections, nodeServerOptions, type ConnectionLimits } from '../http/connections.ts';
import type { HitLane } from '../http/hit-lane.ts';
import type { KeyStore } from '../keys/store.ts';
import type { Limits } from '../limits/gate.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';
import { StreamHub, type StreamHubOptions } from '../stream/hub.ts';

export interface ServeOptions {
  service: Service;
  keys: KeyStore;
  limits: Limits;
  /** 0 = any free port */
  port: number;
  hostname: string;
  stream?: StreamHubOptions;
  /** connection limits (default: connectionLimitsFromEnv) */
  connections?: ConnectionLimits;
  /** who may read `/metrics` (default `local`: loopback peers only) */
  metrics?: MetricsMode;
  /** the access log: `stdout`, a file path, or `off` (default) */
  accessLog?: string;
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8080/` */
  url: string;
  port: number;
  stream: StreamHub;
  /** answers repeated requests from the response cache before srvx and h3 (server/http/hit-lane.ts) */
  lane: HitLane;
  /** stops accepting connections; resolves when the requests in flight have finished */
  stopAccepting(): Promise<void>;
  /** closes every stream socket with 1001, then the HTTP server (open requests are cut) */
  close(): Promise<void>;
}

/** Starts serving; resolves once the port listens. */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const stream = new StreamHub(opts.service, opts.stream);
  const app = createApp(opts.service, opts.keys, opts.limits, { stream });
  const limits = opts.connections ?? connectionLimitsFromEnv();
  const server = serve(app, {
    node: nodeServerOptions(limits),
    port: opts.port,
    hostname: opts.hostname,
    silent: true,
    // `start` handles SIGINT/SIGTERM itself (srvx would otherwise add its own handlers)
    gracefulShutdown: false,
    // hooks come from the app's routes; our hub pings and drops silent peers (idleTimeout 0
    // turns crossws's own sweep off: its 30 s sweep would drop a peer after 30-60 s of silence);
    // the stream is read-only, so a client frame over 4 KiB is refused (1009) rather than buffered
    plugins: [websocketPlugin({ options: { node: { idleTimeout: 0, serverOptions: { maxPayload: 4 * 1024 } } } })],
  });
  // plain HTTP/1.1 (no TLS options are passed, so srvx made a node:http server)
  const lane = hitLaneOf(app)!;
  const metrics = new ServerMetrics(opts.metrics ?? 'local', opts.service, lane.cache, stream);
  const access = openAccessLog(opts.accessLog ?? 'off');
  putInFront(server.node?.server as Server | undefined, server.node?.handler, lane, (req, res) => metrics.answer(req, res));
  const node = server.node!.server as Server;
  guardConnections(node, limits);
  markCompleteness(node, opts.service);
  observeRequests(node, routeLabeler([...routeTemplatesOf(app), METRICS_PATH]), metrics, access);
  await server.ready();
  const url = server.url ?? '';
  return {
    url,
    port: Number(new URL(url).port),
    stream,
    lane,
    stopAccepting: () => server.close(false),
    async close() {
      await stream.closeAll();
      await server.close(true);
      await access?.close();
    },
  };
}

/**
 * Puts `first` (`/metrics`), then the hit lane, before srvx's request listener on its Node server:
 * a request either answers never reaches srvx or h3; any other goes on to srvx's listener as before.
 */
function putInFront(
  server: Server | undefined,
  srvxHandler: ((req: IncomingMessage, res: ServerResponse) => unknown) | undefined,
  lane: HitLane,
  first: (req: IncomingMessage, res: ServerResponse) => boolean,
): void {
  if (!server || !srvxHandler) throw new Error('serve: srvx did not create a Node HTTP server with a request handler');
  if (!server.listeners('request').includes(srvxHandler)) throw new Error("serve: srvx's request listener is not where it was expected");
  server.removeListener('request', srvxHandler);
  server.on('request', (req, res) => {
    let answered: boolean;
    try {
      answered = first(req, res) || lane.answer(req, res);
    } catch (err) {
      // a bug in the lane must not take the process down: the full path answers when it still can
      log.error('hit lane failed; the request goes to the full path:', err);
      answered = res.headersSent;
      if (answered) res.destroy();
    }
    if (!answered) void srvxHandler(req, res);
  });
}

/**
 * Per request: gives it a request id first (the incoming `x-request-id` when sane, else a new one,
 * put on the request so the hit lane and h3 answer with the same), then, once the answer is sent
 * or the connection closed, counts it in the metrics and writes its access-log line.
 */
function observeRequests(server: Server, label: RouteLabeler, metrics: ServerMetrics, access: AccessLog | undefined): void {
  server.prependListener('request', (req, res) => {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers['x-request-id'] as string | undefined);
    req.headers['x-request-id'] = requestId;
    res.once('close', () => {
      const ms = performance.now() - started;
      const route = label((req.url ?? '/').split('?')[0]!);
      const method = req.method ?? 'GET';
      metrics.observe(method, route, res.statusCode, ms / 1000);
      access?.write({ method, route, status: res.statusCode, ms, requestId, keyId: keyIdOfRequest(req) });
    });
  });
}
