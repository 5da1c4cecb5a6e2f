import type { H3 } from 'h3';
import { appLoaded, createApp } from '../../server/main/app.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { openLimits, type Limits } from '../../server/limits/gate.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { openService, type Service } from '../../server/service.ts';
import { tempDataDir } from './fixtures.ts';

export interface TestApp {
  app: H3;
  service: Service;
  keys: KeyStore;
  /** rate limiter and monthly usage of the app (its clock is the option's `limitsClock`, else real time) */
  limits: Limits;
  dir: string;
  /** a raw key of the given plan, created on first use */
  key(plan?: PlanName): string;
  /** `app.request(path)` with the given plan's key in `x-api-key` (null: no key) */
  get(path: string, plan?: PlanName | null, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Opens a service in a fresh temp data dir with a pinned clock, appends `batches` through the one
 * append path, opens the key store and builds the real app.
 */
export async function openTestApp(opts: { now: number; batches?: IncomingBatch[]; limitsClock?: () => number }): Promise<TestApp> {
  const { dir, cleanup } = tempDataDir();
  const service = await openService({ dataDir: dir, clock: () => opts.now });
  for (const batch of opts.batches ?? []) await service.append(batch);
  const keys = KeyStore.open(dir);
  const limits = openLimits(dir, { clock: opts.limitsClock, flushMs: 0 });
  const app = createApp(service, keys, limits);
  // every HTTP test runs on the in-memory paths (their SQL fallbacks have their own equality tests)
  await appLoaded(app);
  const created = new Map<PlanName, string>();
  const key = (plan: PlanName = 'trial'): string => {
    let raw = created.get(plan);
    if (raw === undefined) {
      raw = keys.create({ plan, label: `test ${plan}` }).key;
      created.set(plan, raw);
    }
    return raw;
  };
  return {
    app,
    service,
    keys,
    limits,
    dir,
    key,
    get: async (path, plan = 'trial', init = {}) => {
      const headers = new Headers(init.headers);
      if (plan !== null) headers.set('x-api-key', key(plan));
      return app.request(path, { ...init, headers });
    },
    close: async () => {
      limits.close();
      await service.close();
      cleanup();
    },
  };
}
