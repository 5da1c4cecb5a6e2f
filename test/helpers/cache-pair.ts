import type { H3 } from 'h3';
import { createApp } from '../../server/main/app.ts';
import { ResponseCache } from '../../server/cache/response-cache.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { openLimits, type Limits } from '../../server/limits/gate.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import { openService, type Service } from '../../server/service.ts';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import { tempDataDir } from './fixtures.ts';

/** Two apps over one service: one with the response cache, one without (the reference answers). */
export interface CachePair {
  cache: ResponseCache;
  cached: H3;
  plain: H3;
  keys: KeyStore;
  limits: Limits;
  /** a raw key of the plan, created on first use */
  key(plan: PlanName): string;
  close(): void;
}

/**
 * Opens the key store and limits of `dataDir` and builds the cached and the uncached app over
 * `service` (`limitsClock`: the rate limiter's and meter's clock, default real time).
 */
export function openCachePair(service: Service, dataDir: string, limitsClock?: () => number): CachePair {
  const keys = KeyStore.open(dataDir);
  const limits = openLimits(dataDir, { flushMs: 0, clock: limitsClock });
  const cache = new ResponseCache(service);
  const raw = new Map<PlanName, string>();
  return {
    cache,
    cached: createApp(service, keys, limits, { cache }),
    plain: createApp(service, keys, limits, { cache: new ResponseCache(service, { enabled: false }) }),
    keys,
    limits,
    key(plan) {
      let k = raw.get(plan);
      if (!k) {
        k = keys.create({ plan, label: `cache ${plan}` }).key;
        raw.set(plan, k);
      }
      return k;
    },
    close: () => limits.close(),
  };
}

/** A service on a fresh data directory, one batch appended, and its cache pair (see {@link openCacheFixture}). */
export interface CacheFixture {
  service: Service;
  pair: CachePair;
  /** closes the pair and the service and removes the directory */
  close(): Promise<void>;
}

/**
 * Opens a service with clock `clock` on a fresh temporary data directory, appends `batch`, and
 * builds the cache pair over it (`limitsClock` as in {@link openCachePair}).
 */
export async function openCacheFixture(clock: () => number, batch: IncomingBatch, limitsClock?: () => number): Promise<CacheFixture> {
  const tmp = tempDataDir();
  const service = await openService({ dataDir: tmp.dir, clock });
  await service.append(batch);
  const pair = openCachePair(service, tmp.dir, limitsClock);
  return {
    service,
    pair,
    async close() {
      pair.close();
      await service.close();
      tmp.cleanup();
    },
  };
}
