/**
 * `GET /v1/alpha/liquidations/history`, `GET /v1/alpha/open-interest/history`,
 * `GET /v1/alpha/volume/history` and `GET /v1/alpha/funding-rates/history`: the bucketed history
 * endpoints of one protocol. Window logic (defaults, plan clamp, caps, envelope) lives in
 * ../history-window.ts; each endpoint runs one SQL file of sql/api/.
 *
 * An unknown `market` / `market_variant` (no fills and no market snapshot on the protocol) is a 400
 * `invalid_parameter` naming it, never a silent empty series (contract §2's spirit for bad input).
 */
import type { H3Event } from 'h3';
import { assertScopeKnown } from '../scope.ts';
import { defineRoute, type RestRoute } from './define.ts';
import {
  FundingRateBucket, LiquidationBucket, OpenInterestBucket, VolumeBucket, coarseHistoryOf, historyOf,
} from '../response-schemas.ts';
import {
  coarseIntervalParam, fineIntervalParam, marketParam, marketVariantParam, querySchema, timestampParam,
} from '../params.ts';
import { historyEnvelope, resolveWindow, windowParams, type HistoryKind, type HistoryWindow } from '../history-window.ts';
import { oiPieces, sumPieces } from '../history-pieces.ts';
import { oiSeries } from '../oi-series.ts';
import { declareHistoryValidity } from '../history-validity.ts';
import type { FundingIndex } from '../funding-index.ts';
import type { HistoryMirror } from '../history-mirror.ts';
import { liquidationsFromMirror, openInterestFromMirror, volumeFromMirror } from '../mirror-history.ts';
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
  const windowOf = (
    query: Parameters<typeof resolveWindow>[0],
    key: ApiKeyRecord | null,
    kind: HistoryKind,
  ): HistoryWindow => {
    if (key === null) throw new Error('history routes require an authenticated key');
    return resolveWindow(query, { plan: key.plan, kind, now: service.now() });
  };

  /** 6 and 9: sums per bucket, from the mirror when it can answer, else from their SQL (`sql`). */
  const sumHistory = async (event: H3Event, query: Parameters<typeof resolveWindow>[0] & { market?: string },
    key: ApiKeyRecord | null, kind: HistoryKind, fromMirror: typeof volumeFromMirror | typeof liquidationsFromMirror, sql: string) => {
    const w = windowOf(query, key, kind);
    await assertScopeKnown(service, protocol, query);
    const market = query.market ?? null;
    const found = mirror ? await fromMirror(mirror, market, w) : null;
    const declare = declareHistoryValidity(service, protocol, event, w, query, key!.plan, kind, 'fills', found?.probe);
    const data: unknown[] = found?.rows ?? await service.db.query(sql, { ...sumPieces(w.from, w.to, w.bucketMs), bucket_ms: w.bucketMs, market, protocol });
    declare(data);
    return historyEnvelope(w, data);
  };

  return [
    defineRoute({
      path: `/v1/${protocol}/liquidations/history`,
      cost: 5,
      summary: 'Liquidation count, liquidated notional by side and liquidation fees per bucket (omitted when none).',
      response: coarseHistoryOf(LiquidationBucket),
      query: coarseHistoryQuery,
      handle: ({ event, query, key }) => sumHistory(event, query, key, 'liquidations', liquidationsFromMirror, 'api/liquidations-history'),
    }),
    defineRoute({
      path: `/v1/${protocol}/open-interest/history`,
      cost: 5,
      summary: 'Open interest (long, short, total) at the end of each bucket, carried forward with no gaps.',
      response: historyOf(OpenInterestBucket),
      query: fineHistoryQuery,
      handle: async ({ event, query, key }) => {
        const w = windowOf(query, key, 'history');
        await assertScopeKnown(service, protocol, query);
        const pieces = oiPieces(w);
        const market = query.market ?? null;
        const found = mirror ? await openInterestFromMirror(mirror, market, pieces.lo!, pieces.w_end!, w.bucketMs) : null;
        const declare = declareHistoryValidity(service, protocol, event, w, query, key!.plan, 'history', 'fills+snapshots', found?.probe);
        const data = found?.rows
          ?? oiSeries(await service.db.query('api/open-interest-history', { ...pieces, market, protocol }), pieces.lo!, pieces.w_end!, w.bucketMs);
        declare(data);
        return historyEnvelope(w, data);
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/volume/history`,
      cost: 5,
      summary: 'Traded notional and trading fees per bucket (omitted when no fills).',
      response: historyOf(VolumeBucket),
      query: fineHistoryQuery,
      handle: ({ event, query, key }) => sumHistory(event, query, key, 'history', volumeFromMirror, 'api/volume-history'),
    }),
    defineRoute({
      path: `/v1/${protocol}/funding-rates/history`,
      cost: 5,
      summary: protocol === 'beta'
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
        // from the in-memory hourly rows when loaded (server/http/funding-index.ts), else the SQL
        const data = (funding && variant !== null ? await funding.rows(variant, w.from, w.to, w.bucketMs) : null)
          ?? await service.db.query('api/funding-rates-history', { ...windowParams(w), protocol, market_variant: variant, market });
        declare(data);
        return historyEnvelope(w, data);
      },
    }),
  ];
}
