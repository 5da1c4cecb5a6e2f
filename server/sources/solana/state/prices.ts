/**
 * The prices a snapshot uses. alpha: per token, the provider its token config expects (the
 * store's freshest PriceFeed, or for a Pyth-priced token its sponsored push feed; USD, and as a unit
 * price through the token map's decimals), else the market's latest TradeEvent prices. beta: the
 * custody's Doves AgPriceFeed, else its Pyth account. Index prices fall back to the newest fill's
 * when no oracle account is fresh (the row's `index_price_source` is then `fill`).
 */
import type { AlphaMarketAccount } from '../accounts/alpha-market.ts';
import type { AlphaTokenConfig } from '../accounts/alpha-token-map.ts';
import type { RawAccount } from '../accounts/bytes.ts';
import { decodeDovesAgPrice } from '../oracles/doves-ag-price.ts';
import { decodeGmsolPriceFeed, type GmsolPriceFeed } from '../oracles/gmsol-price-feed.ts';
import type { OraclePrice } from '../oracles/price.ts';
import { decodePythLegacy, decodePythPriceUpdate, PYTH_LEGACY_ID, PYTH_RECEIVER_ID, type PythPrice } from '../oracles/pyth-price-update.ts';
import { decodePythPushFeed } from '../oracles/pyth-push-feed.ts';
import { tryDecode } from '../accounts/bytes.ts';
import type { AlphaPrices, MinMax } from '../alpha-events.ts';

/** An oracle price older than this (seconds) is stale (oracle-prices.md §1e suggests 120 s). */
export const STALE_AFTER_S = 120;

export const isFresh = (p: OraclePrice | undefined, nowSec: number): p is OraclePrice => p !== undefined && nowSec - p.publishTime <= STALE_AFTER_S;

/** The freshest of a token's PriceFeed accounts (several keepers may write one each). */
export function newestFeed(accounts: (RawAccount | null)[]): GmsolPriceFeed | undefined {
  let best: GmsolPriceFeed | undefined;
  for (const a of accounts) {
    const f = tryDecode(decodeGmsolPriceFeed, a, 'alpha PriceFeed');
    if (f && (!best || f.publishTime > best.publishTime)) best = f;
  }
  return best;
}

/** A token's oracle price with the bid / ask the program prices by (raw, at the price's exponent). */
export type TokenFeed = OraclePrice & { min: bigint; max: bigint };

/** A Pyth price as the program turns it into min / max: price ∓ confidence (oracle-prices.md §2d). */
export function pythTokenFeed(p: PythPrice): TokenFeed | undefined {
  if (p.conf >= p.raw) return undefined; // no positive bid: unusable, as the program would find it
  return { ...p, min: p.raw - p.conf, max: p.raw + p.conf };
}

/** Where a token's price may be read: the store's PriceFeed accounts and, for a Pyth-priced token, its push feed. */
export interface AlphaFeedAccounts {
  alphaFeeds: Map<string, string[]>;
  alphaPythFeeds: Map<string, { address: string; feedId: string }>;
}

/**
 * A token's price: from the provider its token config expects (the Pyth push feed for a
 * Pyth-priced token, else the store's freshest PriceFeed), the other one when that is not fresh.
 */
export function alphaTokenFeed(mint: string, d: AlphaFeedAccounts, get: (address: string) => RawAccount | null, nowSec: number): TokenFeed | undefined {
  const store = newestFeed((d.alphaFeeds.get(mint) ?? []).map(get));
  const push = d.alphaPythFeeds.get(mint);
  const pyth = push ? tryDecode((a) => decodePythPushFeed(a, push.feedId), get(push.address), 'Pyth push feed') : undefined;
  const fromPyth = pyth ? pythTokenFeed(pyth) : undefined;
  if (!fromPyth) return store;
  return isFresh(fromPyth, nowSec) || !isFresh(store, nowSec) ? fromPyth : store;
}

/** A feed value (USD per whole token × 10^feedDecimals) → a unit price (per smallest unit × 1e20). */
function toUnit(value: bigint, feedDecimals: number, tokenDecimals: number): bigint {
  const shift = 20 - feedDecimals - tokenDecimals;
  return shift >= 0 ? value * 10n ** BigInt(shift) : value / 10n ** BigInt(-shift);
}

/** A token's unit min / max from its fresh feed, when the token map gives its decimals. */
export function feedUnitPrice(feed: TokenFeed | undefined, token: AlphaTokenConfig | undefined, nowSec: number): MinMax | undefined {
  if (!isFresh(feed, nowSec) || !token) return undefined;
  const d = -feed.expo;
  return { min: toUnit(feed.min, d, token.decimals), max: toUnit(feed.max, d, token.decimals) };
}

/**
 * The model's prices for a market: per token the fresh feed, else the latest TradeEvent's; undefined
 * when a token has neither (the market's rates cannot be computed this time).
 */
export function alphaModelPrices(
  m: AlphaMarketAccount,
  feedOf: (mint: string) => TokenFeed | undefined,
  tokens: Map<string, AlphaTokenConfig>,
  lastTrade: AlphaPrices | undefined,
  nowSec: number,
): AlphaPrices | undefined {
  const pick = (mint: string, fromTrade: MinMax | undefined) => feedUnitPrice(feedOf(mint), tokens.get(mint), nowSec) ?? fromTrade;
  const index = pick(m.indexTokenMint, lastTrade?.index);
  const long = pick(m.longTokenMint, lastTrade?.long);
  const short = pick(m.shortTokenMint, lastTrade?.short);
  return index && long && short ? { index, long, short } : undefined;
}

/** A beta custody's `oracle_account`, decoded by its owner program (Pyth receiver or legacy Pyth). */
export function decodePythAny(a: RawAccount | null): OraclePrice | undefined {
  if (!a) return undefined;
  if (a.owner === PYTH_RECEIVER_ID) return tryDecode(decodePythPriceUpdate, a, 'Pyth PriceUpdateV2');
  if (a.owner === PYTH_LEGACY_ID) return tryDecode(decodePythLegacy, a, 'Pyth v2 price');
  return undefined;
}

/** beta's index price: the Doves AgPriceFeed when fresh, else Pyth when fresh. */
export function betaOraclePrice(ag: RawAccount | null, pyth: RawAccount | null, nowSec: number): OraclePrice | undefined {
  const dove = tryDecode(decodeDovesAgPrice, ag, 'Doves AgPriceFeed');
  if (isFresh(dove, nowSec)) return dove;
  const p = decodePythAny(pyth);
  return isFresh(p, nowSec) ? p : undefined;
}
