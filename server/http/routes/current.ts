/**
 * `GET /v1/alpha/open-interest` and `GET /v1/alpha/funding-rates`: current open interest and funding
 * rates of one protocol, from the latest market snapshot per variant (market_latest; beta: one row per
 * market, variant null, funding = the negated hourly borrow rate, always <= 0).
 *
 * `market_variant` (optional) narrows to one variant. A variant the protocol has never had (neither a
 * snapshot nor a fill; server/http/scope.ts) is a 400 `invalid_parameter`, so a typo is not a
 * silent empty list;
 * a known variant that has no snapshot yet gives `data: []`.
 */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { FundingRate } from '../response-schemas/funding-rates.ts';
import { OpenInterestSnapshot } from '../response-schemas/open-interest.ts';
import { listOf } from '../response-schemas/envelopes.ts';
import { assertScopeKnown } from '../scope.ts';
import { marketVariantParam, querySchema } from '../params.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';

const query = querySchema({ market_variant: v.optional(marketVariantParam) });

/** GET /v1/{protocol}/open-interest, GET /v1/{protocol}/funding-rates. */
export function currentRoutes(service: Service, protocol: Protocol): RestRoute[] {
  const rateNote = protocol === 'beta' ? ' (beta: the negated hourly borrow rate, always <= 0)' : '';
  return [
    defineRoute({
      path: `/v1/${protocol}/open-interest`,
      cost: 1,
      summary: `Current open interest (long, short, total) per ${protocol} ${protocol === 'beta' ? 'market' : 'variant'}, from its latest snapshot.`,
      response: listOf(OpenInterestSnapshot),
      query,
      handle: async ({ query: q }) => {
        await assertScopeKnown(service, protocol, q);
        return { data: await service.db.query('api/alpha-open-interest', { protocol, market_variant: q.market_variant ?? null }) };
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/funding-rates`,
      cost: 1,
      summary: `Current net hourly funding rate per side per ${protocol} ${protocol === 'beta' ? 'market' : 'variant'}, from its latest snapshot${rateNote}.`,
      response: listOf(FundingRate),
      query,
      handle: async ({ query: q }) => {
        await assertScopeKnown(service, protocol, q);
        return { data: await service.db.query('api/alpha-funding-rates', { protocol, market_variant: q.market_variant ?? null }) };
      },
    }),
  ];
}
