/**
 * The account reads behind market snapshots and position polls: what is discovered rarely
 * (alpha's Market and PriceFeed accounts and token map, beta's pool and custodies' oracle
 * pointers) and what is read every snapshot in one batch of getMultipleAccounts.
 */
import { log } from '../../../lib/log.ts';
import { bytesToBase58 } from '../base58.ts';
import { decodeAlphaMarket, type AlphaMarketAccount } from '../accounts/alpha-market.ts';
import { decodeAlphaPosition, POSITION_DISCRIMINATOR, type AlphaPositionAccount } from '../accounts/alpha-position.ts';
import { decodeStoreTokenMap, decodeTokenMap, type AlphaTokenConfig } from '../accounts/alpha-token-map.ts';
import { decodeBetaCustody } from '../accounts/beta-custody.ts';
import { decodeBetaPool, JLP_POOL } from '../accounts/beta-pool.ts';
import { decodeBetaPosition, type BetaPositionAccount } from '../accounts/beta-position.ts';
import { tryDecode } from '../accounts/bytes.ts';
import { decodeGmsolPriceFeed, GMSOL_PRICE_FEED_DISCRIMINATOR, GMSOL_PRICE_FEED_SIZE } from '../oracles/gmsol-price-feed.ts';
import { pythPushFeedAddress } from '../oracles/pyth-push-feed.ts';
import type { SolanaRpc } from '../rpc.ts';
import { ALPHA_MARKET, ALPHA_PROGRAM, ALPHA_STORE, BETA_PROGRAM } from '../layout.ts';

const b58OfHex = (h: string): string => bytesToBase58(Uint8Array.from(Buffer.from(h, 'hex')));

/** Every alpha Market account of the store, decoded (1 getProgramAccounts). */
export async function discoverAlphaMarkets(rpc: SolanaRpc): Promise<AlphaMarketAccount[]> {
  const markets = await rpc.getProgramAccounts(ALPHA_PROGRAM, b58OfHex(ALPHA_MARKET.disc), [{ memcmp: { offset: 216, bytes: ALPHA_STORE } }]);
  return markets.map((a) => tryDecode(decodeAlphaMarket, { ...a, owner: ALPHA_PROGRAM }, 'alpha Market')).filter((m): m is AlphaMarketAccount => m !== undefined && m.store === ALPHA_STORE);
}

/** What discovery found: the addresses read at every snapshot, and the token configs. */
export interface Discovered {
  alphaMarkets: string[];
  /** alpha PriceFeed accounts by token mint */
  alphaFeeds: Map<string, string[]>;
  alphaTokens: Map<string, AlphaTokenConfig>;
  /** alpha tokens the token map prices by Pyth: their sponsored push-feed account and feed id, by mint */
  alphaPythFeeds: Map<string, { address: string; feedId: string }>;
  betaCustodies: string[];
  /** per beta custody: its Doves AgPriceFeed and its `oracle_account` */
  betaOracles: Map<string, { ag: string; pyth: string }>;
}

/** Reads the slow-changing addresses (hourly): 4 getProgramAccounts / getMultipleAccounts calls, plus 2 for the token map. */
export async function discover(rpc: SolanaRpc): Promise<Discovered> {
  const alphaMarkets = (await discoverAlphaMarkets(rpc)).map((m) => m.address);
  const feeds = await rpc.getProgramAccounts(ALPHA_PROGRAM, b58OfHex(GMSOL_PRICE_FEED_DISCRIMINATOR), [{ dataSize: GMSOL_PRICE_FEED_SIZE }, { memcmp: { offset: 24, bytes: ALPHA_STORE } }]);
  const alphaFeeds = new Map<string, string[]>();
  for (const a of feeds) {
    const f = tryDecode(decodeGmsolPriceFeed, { ...a, owner: ALPHA_PROGRAM }, 'alpha PriceFeed');
    if (f && f.store === ALPHA_STORE) alphaFeeds.set(f.token, [...(alphaFeeds.get(f.token) ?? []), f.address]);
  }
  let alphaTokens = new Map<string, AlphaTokenConfig>();
  const [store] = await rpc.getMultipleAccounts([ALPHA_STORE]);
  const tokenMap = tryDecode(decodeStoreTokenMap, store ?? null, 'alpha Store');
  if (tokenMap) {
    const [map] = await rpc.getMultipleAccounts([tokenMap]);
    alphaTokens = tryDecode(decodeTokenMap, map ?? null, 'alpha TokenMap') ?? alphaTokens;
  }
  const alphaPythFeeds = await pythFeedsOf(alphaTokens);
  const [poolAccount] = await rpc.getMultipleAccounts([JLP_POOL]);
  const pool = tryDecode(decodeBetaPool, poolAccount ?? null, 'beta Pool');
  const betaCustodies = pool?.custodies ?? [];
  const betaOracles = new Map<string, { ag: string; pyth: string }>();
  for (const a of await rpc.getMultipleAccounts(betaCustodies)) {
    const c = tryDecode(decodeBetaCustody, a, 'beta Custody');
    if (c) betaOracles.set(c.address, { ag: c.dovesAgOracle, pyth: c.oracleAccount });
  }
  log.debug(
    `solana: market state of ${alphaMarkets.length} alpha markets (${alphaFeeds.size} price-feed tokens, ${alphaPythFeeds.size} Pyth push feeds, ${alphaTokens.size} token configs), ${betaCustodies.length} beta custodies`,
  );
  return { alphaMarkets, alphaFeeds, alphaTokens, alphaPythFeeds, betaCustodies, betaOracles };
}

/** Pyth provider kind in `TokenConfig.expected_provider` (oracle-prices.md §2a). */
const PYTH_PROVIDER = 1;

/**
 * The tokens whose expected provider is Pyth and whose `feeds[1]` is set: such a token has no
 * store PriceFeed; its price persists in Pyth's sponsored push-feed account (shard 0) of that feed
 * id, when Pyth sponsors it (otherwise the account does not exist and the read gives nothing).
 */
export async function pythFeedsOf(tokens: Map<string, AlphaTokenConfig>): Promise<Map<string, { address: string; feedId: string }>> {
  const out = new Map<string, { address: string; feedId: string }>();
  for (const t of tokens.values()) {
    const feedId = t.feeds[PYTH_PROVIDER];
    if (t.expectedProvider !== PYTH_PROVIDER || !feedId || /^0+$/.test(feedId)) continue;
    out.set(t.mint, { address: await pythPushFeedAddress(feedId), feedId });
  }
  return out;
}

/** Every alpha Position account of the store and every beta Position account (2 getProgramAccounts). */
export async function readPositions(rpc: SolanaRpc): Promise<{ alpha: AlphaPositionAccount[]; beta: BetaPositionAccount[] }> {
  const disc = b58OfHex(POSITION_DISCRIMINATOR);
  const [a, b] = await Promise.all([rpc.getProgramAccounts(ALPHA_PROGRAM, disc, [{ memcmp: { offset: 10, bytes: ALPHA_STORE } }]), rpc.getProgramAccounts(BETA_PROGRAM, disc)]);
  return {
    alpha: a.map((x) => tryDecode(decodeAlphaPosition, { ...x, owner: ALPHA_PROGRAM }, 'alpha Position')).filter((p): p is AlphaPositionAccount => p !== undefined),
    beta: b.map((x) => tryDecode(decodeBetaPosition, { ...x, owner: BETA_PROGRAM }, 'beta Position')).filter((p): p is BetaPositionAccount => p !== undefined),
  };
}
