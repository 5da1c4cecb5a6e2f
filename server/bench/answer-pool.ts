/**
 * What the answer comparison draws its parameters from, read through the API of one server (so it
 * works against any running server, old or new code, without opening its files): each protocol's
 * markets and variants, addresses across the activity range, closed and open position ids with their
 * address, and the journal's time span.
 */

/** One protocol's parameter pool. */
export interface ProtocolPool {
  markets: string[];
  variants: string[];
  addresses: string[];
  /** [address, position_id] of closed or liquidated lifecycles */
  closed: [string, number][];
  /** [address, position_id] of open lifecycles */
  open: [string, number][];
  /** epoch ms of the oldest first trade and the newest fill (0 when the protocol has none) */
  firstMs: number;
  lastMs: number;
}

export type AnswerPool = Record<string, ProtocolPool>;

type Json = Record<string, unknown>;
type Get = (path: string) => Promise<Json | null>;

/** A GET with the key, parsed as JSON; null on a non-200 answer. */
export function jsonGetter(url: string, key: string): Get {
  return async (path) => {
    const res = await fetch(url + path, { headers: { 'x-api-key': key } });
    const body = await res.text();
    return res.status === 200 ? (JSON.parse(body) as Json) : null;
  };
}

const rowsOf = (body: Json | null): Json[] => (Array.isArray(body?.data) ? (body.data as Json[]) : []);
const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

/** Reads the pool of `protocol` through `get`. */
export async function protocolPool(get: Get, protocol: string): Promise<ProtocolPool> {
  const p = `/v1/${protocol}`;
  const markets = rowsOf(await get(`${p}/markets`));
  const accounts: Json[] = [];
  // the most active, the most profitable, the smallest, and two slices further down the ranking
  for (const q of ['sort_by=positions&limit=60', 'limit=60', 'sort_by=volume&order=asc&limit=40', 'limit=40&offset=500', 'limit=40&offset=5000']) {
    accounts.push(...rowsOf(await get(`${p}/accounts/search?${q}`)));
  }
  const addresses = unique(accounts.map((a) => String(a.address))).sort();
  const closed: [string, number][] = [];
  for (const address of addresses.filter((_, i) => i % 4 === 0).slice(0, 40)) {
    for (const row of rowsOf(await get(`${p}/accounts/${address}/history?limit=8`))) closed.push([address, Number(row.position_id)]);
  }
  const open: [string, number][] = rowsOf(await get(`${p}/open-positions/search?limit=300`)).map((row) => [String(row.address), Number(row.position_id)]);
  const newest = rowsOf(await get(`${p}/fills?limit=1`))[0];
  const firsts = accounts.map((a) => Date.parse(String(a.first_trade_at))).filter(Number.isFinite);
  return {
    markets: unique(markets.map((m) => String(m.market))),
    variants: unique(markets.map((m) => m.market_variant).filter((x): x is string => typeof x === 'string')),
    addresses,
    closed,
    open,
    firstMs: firsts.length ? Math.min(...firsts) : 0,
    lastMs: newest ? Date.parse(String(newest.time)) : 0,
  };
}

/** The pools of every protocol named in `paths` (`/v1/<protocol>/...` with a `/markets` route). */
export async function answerPool(get: Get, paths: readonly string[]): Promise<AnswerPool> {
  const protocols = unique(paths.map((path) => /^\/v1\/([a-z]+)\/markets$/.exec(path)?.[1]).filter((x): x is string => !!x));
  const pool: AnswerPool = {};
  for (const protocol of protocols) pool[protocol] = await protocolPool(get, protocol);
  return pool;
}
