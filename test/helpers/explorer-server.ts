/**
 * A real server over a few simulated days ending now (both protocols, market snapshots
 * throughout), for the explorer's browser test: small enough to build in seconds, live enough
 * that every chart has data.
 */
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { openLimits, type Limits } from '../../server/limits/gate.ts';
import { openService, type Service } from '../../server/service.ts';
import { startServer, type RunningServer } from '../../server/main/serve.ts';
import { tempDataDir } from './fixtures.ts';

export interface ExplorerServer {
  service: Service;
  server: RunningServer;
  base: string;
  keys: { premium: string; starter: string; trial: string };
  close(): Promise<void>;
}

/** Serves `days` simulated days up to now on 127.0.0.1:0. */
export async function openExplorerServer(days = 3, seed = 11): Promise<ExplorerServer> {
  const { dir, cleanup } = tempDataDir();
  const now = Date.now();
  const start = Math.floor((now - days * 86_400_000) / 3_600_000) * 3_600_000;
  const service = await openService({ dataDir: dir });
  const sim = new Simulator({ seed, start, snapshotsFrom: start });
  for (const batch of sim.advance(now)) await service.append(batch);
  const store = KeyStore.open(dir);
  const limits: Limits = openLimits(dir, { flushMs: 0 });
  const server = await startServer({ service, keys: store, limits, port: 0, hostname: '127.0.0.1' });
  const keys = {
    premium: store.create({ plan: 'premium', label: 'explorer premium' }).key,
    starter: store.create({ plan: 'starter', label: 'explorer starter' }).key,
    trial: store.create({ plan: 'trial', label: 'explorer trial' }).key,
  };
  return {
    service,
    server,
    base: `http://127.0.0.1:${server.port}`,
    keys,
    async close() {
      await server.close();
      limits.close();
      await service.close();
      cleanup();
    },
  };
}
