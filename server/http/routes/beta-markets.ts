/** `GET /v1/beta/markets` and `GET /v1/beta/markets/stats`: beta market listing and per-market stats (market_variant always null). */
import { defineRoute, type RestRoute } from './define.ts';
import { BetaMarket, BetaMarketRef } from '../response-schemas/markets.ts';
import { listOf } from '../response-schemas/envelopes.ts';
import { noQuery } from '../params.ts';
import type { Service } from '../../service.ts';
import { withActivityValidity } from '../activity-validity.ts';

/** GET /v1/beta/markets, GET /v1/beta/markets/stats. */
export function betaMarketRoutes(service: Service): RestRoute[] {
  return [
    defineRoute({
      path: '/v1/beta/markets',
      cost: 1,
      summary: 'List beta markets.',
      response: listOf(BetaMarketRef),
      query: noQuery,
      handle: async () => ({ data: await service.db.query('api/beta-markets') }),
    }),
    defineRoute({
      path: '/v1/beta/markets/stats',
      cost: 1,
      summary: 'Price, open interest, borrow-based rates and 24h activity per beta market.',
      response: listOf(BetaMarket),
      query: noQuery,
      handle: async ({ event }) => ({
        data: await withActivityValidity(service, event, service.now(), (now) => service.db.query('api/beta-markets-stats', { now })),
      }),
    }),
  ];
}
