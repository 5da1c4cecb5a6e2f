/**
 * Endpoints 7 and 10: current alpha open interest and funding rates, from the latest market
 * snapshot per variant (market_latest).
 *
 * `market_variant` (optional) narrows to one variant. A variant alpha has never had (neither a
 * snapshot nor a fill; server/http/scope.ts) is a 400 `invalid_parameter`, so a typo is not a
 * silent empty list;
 * a known variant that has no snapshot yet gives `data: []`.
 */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { FundingRate, OpenInterestSnapshot, listOf } from '../response-schemas.ts';
import { assertAlphaScopeKnown } from '../scope.ts';
import { marketVariantParam, querySchema } from '../params.ts';
import type { Service } from '../../service.ts';

const query = querySchema({ market_variant: v.optional(marketVariantParam) });

/** GET /v1/alpha/open-interest, GET /v1/alpha/funding-rates. */
export function currentRoutes(service: Service): RestRoute[] {
  return [
    defineRoute({
      path: '/v1/alpha/open-interest',
      cost: 1,
      summary: 'Current open interest (long, short, total) per alpha variant, from its latest snapshot.',
      response: listOf(OpenInterestSnapshot),
      query,
      handle: async ({ query: q }) => {
        await assertAlphaScopeKnown(service, q);
        return { data: await service.db.query('api/alpha-open-interest', { market_variant: q.market_variant ?? null }) };
      },
    }),
    defineRoute({
      path: '/v1/alpha/funding-rates',
      cost: 1,
      summary: 'Current net hourly funding rate per side per alpha variant, from its latest snapshot.',
      response: listOf(FundingRate),
      query,
      handle: async ({ query: q }) => {
        await assertAlphaScopeKnown(service, q);
        return { data: await service.db.query('api/alpha-funding-rates', { market_variant: q.market_variant ?? null }) };
      },
    }),
  ];
}
