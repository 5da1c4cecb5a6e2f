/**
 * A real HTTP server (the app on a loopback port) over a temporary service holding one fill, with
 * one key: for tests of what only a socket shows (connections, headers, metrics, access log).
 */
import { startServer, type RunningServer, type ServeOptions } from '../../server/main/serve.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { openLimits, type Limits } from '../../server/limits/gate.ts';
import type { IncomingFill } from '../../server/journal/rows.ts';
import type { Service } from '../../server/service.ts';
import { at, fill, tempService } from './fixtures.ts';

type ServerExtras = Partial<Omit<ServeOptions, 'service' | 'keys' | 'limits'>>;

export interface OneFillServer {
  server: RunningServer;
  service: Service;
  limits: Limits;
  /** the key of `plan` */
  key: string;
  dir: string;
  close(): Promise<void>;
}

/** Serves a service whose clock stands the day after its one fill (`fillOver` changes the fill). */
export async function openOneFillServer(opts: {
  plan: PlanName;
  fillOver?: Partial<IncomingFill>;
  /** server options, or a function of the data directory giving them */
  serve?: ServerExtras | ((dir: string) => ServerExtras);
}): Promise<OneFillServer> {
  const t = await tempService(at('2026-06-02T00:00:00Z'));
  await t.service.append({ fills: [fill({ time: at('2026-06-01T10:00:00Z'), ...opts.fillOver })], marketSnapshots: [], positionSnapshots: [] });
  const keys = KeyStore.open(t.dir);
  const key = keys.create({ plan: opts.plan, label: 'test' }).key;
  const limits = openLimits(t.dir, { flushMs: 0 });
  const extras = typeof opts.serve === 'function' ? opts.serve(t.dir) : opts.serve;
  const server = await startServer({ service: t.service, keys, limits, port: 0, hostname: '127.0.0.1', ...extras });
  return {
    server,
    service: t.service,
    limits,
    key,
    dir: t.dir,
    async close() {
      await server.close();
      limits.close();
      await t.cleanup();
    },
  };
}
