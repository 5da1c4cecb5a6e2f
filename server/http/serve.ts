/**
 * Starts the HTTP server of a service: the h3 app (REST routes and the fills stream) on srvx's Node
 * server, with the crossws plugin taking WebSocket upgrades. Used by `start` and by tests, which
 * listen on port 0 and read the port back from `url`.
 */
import { serve } from 'h3';
import { plugin as websocketPlugin } from 'crossws/server/node';
import { createApp } from './app.ts';
import type { KeyStore } from '../keys/store.ts';
import type { Limits } from '../limits/gate.ts';
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
}

export interface RunningServer {
  /** e.g. `http://127.0.0.1:8080/` */
  url: string;
  port: number;
  stream: StreamHub;
  /** stops accepting connections; resolves when the requests in flight have finished */
  stopAccepting(): Promise<void>;
  /** closes every stream socket with 1001, then the HTTP server (open requests are cut) */
  close(): Promise<void>;
}

/** Starts serving; resolves once the port listens. */
export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const stream = new StreamHub(opts.service, opts.stream);
  const server = serve(createApp(opts.service, opts.keys, opts.limits, { stream }), {
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
  await server.ready();
  const url = server.url ?? '';
  return {
    url,
    port: Number(new URL(url).port),
    stream,
    stopAccepting: () => server.close(false),
    async close() {
      await stream.closeAll();
      await server.close(true);
    },
  };
}
