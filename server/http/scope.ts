import { ApiError } from './errors.ts';
import type { Database } from '../db/database.ts';
import type { Service } from '../service.ts';
import type { Protocol } from '../journal/rows.ts';

/**
 * Scopes known, per database and protocol: seeded with every one the database has when first asked (one query),
 * then those found known later. A protocol never forgets a market or variant (the journal is
 * append-only and the derived tables are rebuilt from it), so a positive answer holds for the life
 * of the process and is not asked again (a query of ~1-2 ms, tens of ms on a busy machine, on
 * every request with a market); an unknown one is asked every time, since the next append may
 * bring it.
 */
const knownScopes = new WeakMap<Database, Map<Protocol, Promise<Set<string>>>>();

const scopeKey = (param: 'market' | 'market_variant', value: string): string => `${param}\n${value}`;

function knownOf(db: Database, protocol: Protocol): Promise<Set<string>> {
  let ofDb = knownScopes.get(db);
  if (!ofDb) knownScopes.set(db, (ofDb = new Map()));
  let known = ofDb.get(protocol);
  if (!known) {
    known = db.query('api/alpha-scopes-known', { protocol }).then((rows) => {
      const set = new Set<string>();
      for (const r of rows) {
        set.add(scopeKey('market', r.market as string));
        if (typeof r.market_variant === 'string') set.add(scopeKey('market_variant', r.market_variant));
      }
      return set;
    });
    ofDb.set(protocol, known);
    known.catch(() => ofDb.delete(protocol)); // asked again next time
  }
  return known;
}

/**
 * 400 `invalid_parameter` when a given `market` or `market_variant` names nothing `protocol` has
 * ever had (no fills and no market snapshot): a typo must not come back as a silent empty answer.
 * Each given parameter is checked on its own, the variant first (beta has none: any variant is unknown).
 */
export async function assertScopeKnown(service: Service, protocol: Protocol, scope: { market?: string | undefined; market_variant?: string | undefined }): Promise<void> {
  if (scope.market === undefined && scope.market_variant === undefined) return;
  const known = await knownOf(service.db, protocol);
  const checks: ['market' | 'market_variant', string | undefined][] = [
    ['market_variant', scope.market_variant],
    ['market', scope.market],
  ];
  for (const [param, value] of checks) {
    if (value === undefined) continue;
    const key = scopeKey(param, value);
    if (known.has(key)) continue;
    const row = await service.db.queryOne('api/alpha-scope-known', {
      protocol,
      market: param === 'market' ? value : null,
      market_variant: param === 'market_variant' ? value : null,
    });
    if (row?.known === true) {
      known.add(key);
      continue;
    }
    const what = param === 'market' ? 'market' : 'market variant';
    throw new ApiError(400, 'invalid_parameter', `Parameter '${param}' names no ${protocol} ${what}: '${value}' (see /v1/${protocol}/markets).`, param);
  }
}
