import { ApiError } from './errors.ts';
import type { Database } from '../db/database.ts';
import type { Service } from '../service.ts';

/**
 * Scopes already found known, per database. Alpha never forgets a market or variant (the journal
 * is append-only and the derived tables are rebuilt from it), so a positive answer holds for the
 * life of the process and is not asked again (a query of ~1-2 ms on every history request with a
 * market); an unknown one is asked every time, since the next append may bring it.
 */
const knownScopes = new WeakMap<Database, Set<string>>();

/**
 * 400 `invalid_parameter` when a given `market` or `market_variant` names nothing alpha has ever
 * had (no fills and no market snapshot): a typo must not come back as a silent empty answer.
 * Each given parameter is checked on its own, the variant first.
 */
export async function assertAlphaScopeKnown(
  service: Service,
  scope: { market?: string | undefined; market_variant?: string | undefined },
): Promise<void> {
  let known = knownScopes.get(service.db);
  if (!known) knownScopes.set(service.db, (known = new Set()));
  const checks: ['market' | 'market_variant', string | undefined][] = [['market_variant', scope.market_variant], ['market', scope.market]];
  for (const [param, value] of checks) {
    if (value === undefined) continue;
    const key = `${param}\n${value}`;
    if (known.has(key)) continue;
    const row = await service.db.queryOne('api/alpha-scope-known', {
      market: param === 'market' ? value : null,
      market_variant: param === 'market_variant' ? value : null,
    });
    if (row?.known === true) {
      known.add(key);
      continue;
    }
    const what = param === 'market' ? 'market' : 'market variant';
    throw new ApiError(400, 'invalid_parameter', `Parameter '${param}' names no alpha ${what}: '${value}' (see /v1/alpha/markets).`, param);
  }
}
