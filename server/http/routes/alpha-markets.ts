/** `GET /v1/alpha/markets` and `GET /v1/alpha/markets/stats`: alpha market listing and per-variant market stats. */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { Market, MarketRef } from '../response-schemas/markets.ts';
import { described } from '../response-schemas/scalars.ts';
import { listOf } from '../response-schemas/envelopes.ts';
import { noQuery } from '../params.ts';
import type { Service } from '../../service.ts';
import { withActivityValidity } from '../activity-validity.ts';

/** GET /v1/alpha/markets, GET /v1/alpha/markets/stats. */
export function alphaMarketRoutes(service: Service): RestRoute[] {
  return [
    defineRoute({
      path: '/v1/alpha/markets',
      cost: 1,
      summary: 'List alpha market variants and the grouped market symbols.',
      response: v.strictObject({
        data: described(v.array(MarketRef), 'One row per variant.'),
        markets: v.pipe(v.array(v.string()), v.description('Distinct grouped market symbols (accepted as `market`).')),
      }),
      query: noQuery,
      handle: async () => {
        const data = await service.db.query('api/alpha-markets');
        const markets = [...new Set(data.map((r) => r.market as string))];
        return { data, markets };
      },
    }),
    defineRoute({
      path: '/v1/alpha/markets/stats',
      cost: 1,
      summary: 'Price, open interest, funding rates and 24h activity per active alpha variant.',
      response: listOf(Market),
      query: noQuery,
      handle: async ({ event }) => ({
        data: await withActivityValidity(service, event, service.now(), (now) => service.db.query('api/alpha-markets-stats', { now })),
      }),
    }),
  ];
}
