/**
 * Endpoints 7 and 10: current alpha open interest and funding rates, from the latest market
 * snapshot per variant (market_latest).
 *
 * `market_variant` (optional) narrows to one variant. A variant alpha has never had (neither a
 * snapshot nor a lifecycle) is a 400 `invalid_parameter`, so a typo is not a silent empty list;
 * a known variant that has no snapshot yet gives `data: []`.
 */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { FundingRate, OpenInterestSnapshot, listOf } from '../response-schemas.ts';
import { ApiError } from '../errors.ts';
import { marketVariantParam, querySchema } from '../params.ts';
import type { Service } from '../../service.ts';

const query = querySchema({ market_variant: v.optional(marketVariantParam) });

/** Throws the 400 when `variant` is given and alpha does not know it. */
async function checkVariant(service: Service, variant: string | undefined): Promise<void> {
  if (variant === undefined) return;
  const known = await service.db.query('api/alpha-markets');
  if (!known.some((r) => r.market_variant === variant)) {
    throw new ApiError(400, 'invalid_parameter', `Parameter 'market_variant' names no alpha market variant: '${variant}' (see /v1/alpha/markets).`, 'market_variant');
  }
}

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
        await checkVariant(service, q.market_variant);
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
        await checkVariant(service, q.market_variant);
        return { data: await service.db.query('api/alpha-funding-rates', { market_variant: q.market_variant ?? null }) };
      },
    }),
  ];
}
