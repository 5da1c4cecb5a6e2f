/**
 * `GET /v1/{protocol}/liquidations/history`, `GET /v1/{protocol}/open-interest/history`,
 * `GET /v1/{protocol}/volume/history` and `GET /v1/{protocol}/funding-rates/history`: the bucketed
 * history endpoints of one protocol. Window logic (defaults, plan clamp, caps, envelope) lives in
 * ../history-window.ts; the data comes from the read models server/read/buckets/bucket-history.ts
 * and server/read/funding/funding-history.ts.
 *
 * An unknown `market` / `market_variant` (no fills and no market snapshot on the protocol) is a 400
 * `invalid_parameter` naming it, never a silent empty series (contract §2's spirit for bad input).
 */
import type { H3Event } from 'h3';
import { assertScopeKnown } from '../scope.ts';
import { defineRoute, type RestRoute } from './define.ts';
import { FundingRateBucket } from '../response-schemas/funding-rates.ts';
import { LiquidationBucket } from '../response-schemas/liquidations.ts';
import { OpenInterestBucket } from '../response-schemas/open-interest.ts';
import { VolumeBucket } from '../response-schemas/volume.ts';
import { coarseHistoryOf, historyOf } from '../response-schemas/envelopes.ts';
import { coarseIntervalParam, fineIntervalParam, marketParam, marketVariantParam, querySchema, timestampParam } from '../params.ts';
import { historyEnvelope, resolveWindow } from '../history-window.ts';
import type { HistoryKind, HistoryWindow } from '../../read/window.ts';
import { declareHistoryValidity } from '../history-validity.ts';
import type { FundingIndex } from '../../read/funding/funding-index.ts';
import type { HistoryMirror } from '../../read/buckets/history-mirror.ts';
import { BucketHistory } from '../../read/buckets/bucket-history.ts';
import { FundingHistory } from '../../read/funding/funding-history.ts';
import * as v from 'valibot';
import type { ApiKeyRecord } from '../../keys/store.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';

const fineHistoryQuery = querySchema({
  market: v.optional(marketParam),
  interval: v.optional(fineIntervalParam),
  from: v.optional(timestampParam),
  to: v.optional(timestampParam),
});

const coarseHistoryQuery = querySchema({
  market: v.optional(marketParam),
  interval: v.optional(coarseIntervalParam),
  from: v.optional(timestampParam),
  to: v.optional(timestampParam),
});

/** Beta has one rate row per market (no variants): its funding history takes `market`. */
const betaFundingHistoryQuery = querySchema({
  market: v.pipe(marketParam, v.description('Market symbol (REQUIRED): beta has one rate series per market.')),
  interval: v.optional(coarseIntervalParam),
  from: v.optional(timestampParam),
  to: v.optional(timestampParam),
});

const fundingHistoryQuery = querySchema({
  market_variant: marketVariantParam,
  interval: v.optional(coarseIntervalParam),
  from: v.optional(timestampParam),
  to: v.optional(timestampParam),
});

/**
 * History routes: GET /v1/{protocol}/{liquidations,open-interest,volume,funding-rates}/history. 6, 8
 * and 9 answer from `mirror` (the protocol's in-memory 5-minute buckets) when it can, 11 from `funding`
 * (alpha's in-memory hourly funding rows), else each from its SQL (a null part: always the SQL).
 */
export function historyRoutes(service: Service, protocol: Protocol, mirror: HistoryMirror | null, funding: FundingIndex | null): RestRoute[] {
  const buckets = new BucketHistory(service, protocol, mirror);
  const rates = new FundingHistory(service, protocol, funding);
  const windowOf = (query: Parameters<typeof resolveWindow>[0], key: ApiKeyRecord | null, kind: HistoryKind): HistoryWindow => {
    if (key === null) throw new Error('history routes require an authenticated key');
    return resolveWindow(query, { plan: key.plan, kind, now: service.now() });
  };

  /** 6 and 9: sums per bucket, from the model's tier (`answer`). */
  const sumHistory = async (event: H3Event, query: Parameters<typeof resolveWindow>[0] & { market?: string }, key: ApiKeyRecord | null, kind: HistoryKind, answer: 'volume' | 'liquidations') => {
    const w = windowOf(query, key, kind);
    await assertScopeKnown(service, protocol, query);
    let declare: (data: unknown[]) => void = () => undefined;
    const data = await buckets[answer](query.market ?? null, w, (probe) => {
      declare = declareHistoryValidity(service, protocol, event, w, query, key!.plan, kind, 'fills', probe);
    });
    declare(data);
    return historyEnvelope(w, data);
  };

  return [
    defineRoute({
      path: `/v1/${protocol}/liquidations/history`,
      cost: 5,
      cache: { depth: 'liquidations', timeBound: 'bucket' },
      summary: 'Liquidation count, liquidated notional by side and liquidation fees per bucket (omitted when none).',
      response: coarseHistoryOf(LiquidationBucket),
      query: coarseHistoryQuery,
      handle: ({ event, query, key }) => sumHistory(event, query, key, 'liquidations', 'liquidations'),
    }),
    defineRoute({
      path: `/v1/${protocol}/open-interest/history`,
      cost: 5,
      cache: { depth: 'history', timeBound: 'bucket' },
      summary: 'Open interest (long, short, total) at the end of each bucket, carried forward with no gaps.',
      response: historyOf(OpenInterestBucket),
      query: fineHistoryQuery,
      handle: async ({ event, query, key }) => {
        const w = windowOf(query, key, 'history');
        await assertScopeKnown(service, protocol, query);
        let declare: (data: unknown[]) => void = () => undefined;
        const data = await buckets.openInterest(query.market ?? null, w, (probe) => {
          declare = declareHistoryValidity(service, protocol, event, w, query, key!.plan, 'history', 'fills+snapshots', probe);
        });
        declare(data);
        return historyEnvelope(w, data);
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/volume/history`,
      cost: 5,
      cache: { depth: 'history', timeBound: 'bucket' },
      summary: 'Traded notional and trading fees per bucket (omitted when no fills).',
      response: historyOf(VolumeBucket),
      query: fineHistoryQuery,
      handle: ({ event, query, key }) => sumHistory(event, query, key, 'history', 'volume'),
    }),
    defineRoute({
      path: `/v1/${protocol}/funding-rates/history`,
      cost: 5,
      cache: { depth: 'funding', timeBound: 'bucket' },
      summary:
        protocol === 'beta'
          ? 'Average hourly rate per side per bucket for one beta market: the negated borrow rate, always <= 0 (omitted when no snapshot).'
          : 'Average net hourly funding rate per side per bucket for one market variant (omitted when no snapshot).',
      response: coarseHistoryOf(FundingRateBucket),
      query: protocol === 'beta' ? betaFundingHistoryQuery : fundingHistoryQuery,
      handle: async ({ event, query, key }) => {
        const w = windowOf(query, key, 'funding');
        await assertScopeKnown(service, protocol, query);
        const declare = declareHistoryValidity(service, protocol, event, w, query, key!.plan, 'funding', 'hours');
        const variant = 'market_variant' in query ? query.market_variant : null;
        const market = 'market' in query ? query.market : null;
        const data = await rates.rates(variant, market, w);
        declare(data);
        return historyEnvelope(w, data);
      },
    }),
  ];
}
