/**
 * The valibot schemas of the 200 bodies (and of the error body) live in this folder, one file per
 * resource, shared by the route files: the OpenAPI document (server/http/openapi.ts) is generated
 * from them with `@valibot/to-json-schema`, and test/http/openapi.test.ts validates real responses
 * against that document.
 *
 * Conventions:
 * - Every object is a `v.strictObject` (the JSON Schema says `additionalProperties: false`), so a
 *   field added to a SQL file without a schema change fails the test.
 * - Only JSON-Schema-expressible pieces (no transforms): the schemas describe, they do not parse.
 * - Named records (Market, Account, …) are listed in {@link RESPONSE_DEFINITIONS} below: the document
 *   puts them under `components/schemas` and refers to them by `$ref`.
 */
import { ProtocolInfo, ProtocolOverview } from './protocols.ts';
import { BetaMarket, BetaMarketRef, Market, MarketRef } from './markets.ts';
import { Liquidation, LiquidationBucket } from './liquidations.ts';
import { OpenInterestBucket, OpenInterestSnapshot } from './open-interest.ts';
import { VolumeBucket } from './volume.ts';
import { FundingRate, FundingRateBucket } from './funding-rates.ts';
import { Account, AccountsSummary } from './accounts.ts';
import { Pagination } from './pagination.ts';

/** Named records: `components/schemas` entries of the OpenAPI document, referenced by `$ref`. */
export const RESPONSE_DEFINITIONS = {
  ProtocolInfo,
  ProtocolOverview,
  MarketRef,
  BetaMarketRef,
  Market,
  BetaMarket,
  Liquidation,
  LiquidationBucket,
  OpenInterestSnapshot,
  OpenInterestBucket,
  VolumeBucket,
  FundingRate,
  FundingRateBucket,
  AccountsSummary,
  Account,
  Pagination,
} as const;
