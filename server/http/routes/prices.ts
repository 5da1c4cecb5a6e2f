/**
 * GET /v1/{protocol}/prices/history: OHLC candles of one market's index price per bucket, in the
 * envelope of the other history endpoints (fine intervals, default windows, plan depth as the
 * open-interest and volume history, 5 credits). From the market's snapshots where they exist and
 * the index prices its fills carry before them (../price-candles.ts).
 */
import * as v from 'valibot';
import { defineRoute, type RestRoute } from './define.ts';
import { historyOf } from '../response-schemas/envelopes.ts';
import { assertScopeKnown } from '../scope.ts';
import { fineIntervalParam, marketParam, querySchema, timestampParam } from '../params.ts';
import { historyEnvelope, resolveWindow } from '../history-window.ts';
import { priceCandles } from '../../read/prices/price-candles.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { Service } from '../../service.ts';

const price = (text: string) => v.pipe(v.number(), v.description(text));

/** One candle. */
export const PriceCandle = v.strictObject({
  time: v.pipe(v.string(), v.isoTimestamp(), v.description('Start of the bucket (UTC, milliseconds).')),
  open: price("Index price (USD) of the bucket's first observation."),
  high: price('Highest index price (USD) observed in the bucket.'),
  low: price('Lowest index price (USD) observed in the bucket.'),
  close: price("Index price (USD) of the bucket's last observation."),
  observations: v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Price observations in the bucket: market snapshots, or fills before the market's first snapshot.")),
});

const query = querySchema({
  market: v.pipe(marketParam, v.description('Market symbol (REQUIRED), e.g. SOL-PERP; on alpha every variant of the index shares its price.')),
  interval: v.optional(fineIntervalParam),
  from: v.optional(timestampParam),
  to: v.optional(timestampParam),
});

/** GET /v1/{protocol}/prices/history. */
export function priceRoutes(service: Service, protocol: Protocol): RestRoute[] {
  return [
    defineRoute({
      path: `/v1/${protocol}/prices/history`,
      cost: 5,
      cache: { depth: 'history', timeBound: 'bucket' },
      summary: "OHLC candles of one market's index price per bucket (omitted when no observation): market snapshots, and fills' index prices before the first snapshot.",
      response: historyOf(PriceCandle),
      query,
      handle: async ({ query: q, key }) => {
        if (key === null) throw new Error('price history requires an authenticated key');
        const w = resolveWindow(q, { plan: key.plan, kind: 'history', now: service.now() });
        await assertScopeKnown(service, protocol, q);
        return historyEnvelope(w, await priceCandles(service, protocol, q.market, w));
      },
    }),
  ];
}
