import { ApiError } from './errors.ts';
import type { Service } from '../service.ts';

/**
 * 400 `invalid_parameter` when a given `market` or `market_variant` names nothing alpha has ever
 * had (no fills and no market snapshot): a typo must not come back as a silent empty answer.
 * Each given parameter is checked on its own, the variant first.
 */
export async function assertAlphaScopeKnown(
  service: Service,
  scope: { market?: string | undefined; market_variant?: string | undefined },
): Promise<void> {
  const checks: ['market' | 'market_variant', string | undefined][] = [['market_variant', scope.market_variant], ['market', scope.market]];
  for (const [param, value] of checks) {
    if (value === undefined) continue;
    const row = await service.db.queryOne('api/alpha-scope-known', {
      market: param === 'market' ? value : null,
      market_variant: param === 'market_variant' ? value : null,
    });
    if (row?.known === true) continue;
    const what = param === 'market' ? 'market' : 'market variant';
    throw new ApiError(400, 'invalid_parameter', `Parameter '${param}' names no alpha ${what}: '${value}' (see /v1/alpha/markets).`, param);
  }
}
