/**
 * Demo keys: on the very first start (no key at all in keys.json), one key per sold plan is
 * created and the raw keys are written to `<dataDir>/demo-keys.json` (mode 0600) for the operator
 * to try the API; only the file's path is logged. A later start has keys, so nothing happens.
 */
import { join } from 'node:path';
import { log } from '../lib/log.ts';
import { SOLD_PLANS, type PlanName } from './plans.ts';
import { writeFileAtomic } from '../lib/fs-atomic.ts';
import type { KeyStore } from './store.ts';

/** One entry of demo-keys.json. */
export interface DemoKey {
  id: string;
  plan: PlanName;
  key: string;
  label: string;
}

/** Path of the demo key file of a data directory. */
export function demoKeysPath(dataDir: string): string {
  return join(dataDir, 'demo-keys.json');
}

/**
 * Creates the demo keys when the store holds no key at all; returns the file path and the keys
 * created, or null when the store already had keys (any later start).
 */
export function ensureDemoKeys(store: KeyStore): { path: string; keys: DemoKey[] } | null {
  if (store.size > 0) return null;
  const keys: DemoKey[] = SOLD_PLANS.map((plan) => {
    const label = `demo ${plan}`;
    const { key, record } = store.create({ plan, label, account: `demo-${plan}` });
    return { id: record.id, plan, key, label };
  });
  const path = demoKeysPath(store.dataDir);
  writeFileAtomic(path, `${JSON.stringify(keys, null, 2)}\n`, 0o600);
  log.info(`First start: created one demo API key per plan (${SOLD_PLANS.join(', ')}); they are in ${path}`);
  return { path, keys };
}
