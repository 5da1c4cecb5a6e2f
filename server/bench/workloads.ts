/**
 * The bench's request mix: realistic, varied parameters taken from the data itself (real markets
 * and variants, active addresses, open and closed position ids, liquidation cursors' filters,
 * windows ending on recent hours), read from the derived-state file before the server opens it
 * (DuckDB allows one writing process), so discovery does not warm the server's caches.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { statePath } from '../service.ts';
import { DAY_MS, HOUR_MS } from '../lib/time.ts';

/** What the parameters are drawn from. */
export interface BenchData {
  fills: number;
  /** alpha accounts and open alpha lifecycles (the endpoints' protocol) */
  accounts: number;
  openPositions: number;
  /** both protocols' accounts (protocol, address) and open lifecycles: the journal's size */
  allAccounts: number;
  allOpenPositions: number;
  markets: string[];
  variants: string[];
  addresses: string[];
  /** closed lifecycles: [address, position_id] */
  closed: [string, number][];
  /** open lifecycles: [address, position_id] */
  open: [string, number][];
  /** beta's pools (its endpoints' twins, fills and candles): markets, addresses, closed and open lifecycles */
  beta: { markets: string[]; addresses: string[]; closed: [string, number][]; open: [string, number][] };
  /** the newest fill time, epoch ms (the bench's "now" for windows) */
  lastFill: number;
}

async function rows(conn: Awaited<ReturnType<DuckDBInstance['connect']>>, sql: string): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

/** Reads the parameter pools from `<dataDir>/state.duckdb` (read-only; the server must not run). */
export async function discover(dataDir: string): Promise<BenchData> {
  const instance = await DuckDBInstance.create(statePath(dataDir), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    const [counts] = await rows(
      conn,
      `SELECT (SELECT count(*) FROM fills)::DOUBLE AS fills,
      (SELECT count(*) FROM accounts WHERE protocol = 'alpha')::DOUBLE AS accounts,
      (SELECT count(*) FROM open_lifecycles WHERE protocol = 'alpha')::DOUBLE AS open_positions,
      (SELECT count(*) FROM accounts)::DOUBLE AS all_accounts,
      (SELECT count(*) FROM open_lifecycles)::DOUBLE AS all_open_positions,
      (SELECT epoch_ms(max(time)) FROM fills)::DOUBLE AS last_fill`,
    );
    const markets = await rows(conn, `SELECT DISTINCT market, market_variant FROM markets WHERE protocol = 'alpha' ORDER BY 1, 2`);
    // addresses across the activity range: the most active, and a spread sample of the rest
    const addresses = await rows(
      conn,
      `(SELECT address FROM accounts WHERE protocol = 'alpha' ORDER BY positions DESC, address LIMIT 100)
      UNION (SELECT address FROM accounts WHERE protocol = 'alpha' USING SAMPLE reservoir(200 ROWS) REPEATABLE (7))`,
    );
    const closed = await rows(
      conn,
      `SELECT address, position_id FROM lifecycles WHERE protocol = 'alpha' AND status <> 'open'
      USING SAMPLE reservoir(300 ROWS) REPEATABLE (7)`,
    );
    const open = await rows(
      conn,
      `SELECT address, position_id FROM lifecycles WHERE protocol = 'alpha' AND status = 'open'
      USING SAMPLE reservoir(300 ROWS) REPEATABLE (7)`,
    );
    const betaMarkets = await rows(conn, `SELECT DISTINCT market FROM markets WHERE protocol = 'beta' ORDER BY 1`);
    const betaAddresses = await rows(
      conn,
      `(SELECT address FROM accounts WHERE protocol = 'beta' ORDER BY positions DESC, address LIMIT 100)
      UNION (SELECT address FROM accounts WHERE protocol = 'beta' USING SAMPLE reservoir(200 ROWS) REPEATABLE (7))`,
    );
    const betaClosed = await rows(
      conn,
      `SELECT address, position_id FROM lifecycles WHERE protocol = 'beta' AND status <> 'open'
      USING SAMPLE reservoir(300 ROWS) REPEATABLE (7)`,
    );
    const betaOpen = await rows(
      conn,
      `SELECT address, position_id FROM lifecycles WHERE protocol = 'beta' AND status = 'open'
      USING SAMPLE reservoir(300 ROWS) REPEATABLE (7)`,
    );
    const pairs = (xs: Record<string, unknown>[]): [string, number][] => xs.map((r) => [String(r.address), Number(r.position_id)]);
    return {
      fills: Number(counts!.fills),
      accounts: Number(counts!.accounts),
      openPositions: Number(counts!.open_positions),
      allAccounts: Number(counts!.all_accounts),
      allOpenPositions: Number(counts!.all_open_positions),
      lastFill: Number(counts!.last_fill),
      markets: [...new Set(markets.map((r) => String(r.market)))],
      variants: markets.map((r) => r.market_variant).filter((x): x is string => typeof x === 'string'),
      addresses: addresses.map((r) => String(r.address)).sort(),
      closed: closed.map((r) => [String(r.address), Number(r.position_id)]),
      open: open.map((r) => [String(r.address), Number(r.position_id)]),
      beta: {
        markets: betaMarkets.map((r) => String(r.market)),
        addresses: betaAddresses.map((r) => String(r.address)).sort(),
        closed: pairs(betaClosed),
        open: pairs(betaOpen),
      },
    };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** A deterministic pseudo-random generator (mulberry32), so every run sends the same requests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const enc = encodeURIComponent;
const iso = (ms: number): string => new Date(ms).toISOString();

/** One endpoint's workload: a label and its distinct request paths. */
export interface EndpointWorkload {
  name: string;
  paths: string[];
}

/**
 * Up to `n` distinct paths per endpoint. Windows: half the default (to = now), half explicit
 * windows ending on one of the last 48 hours, with the interval's usual span.
 */
export function endpointWorkloads(d: BenchData, now: number, n = 100): EndpointWorkload[] {
  const r = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const maybe = (p: number, s: string): string => (r() < p ? s : '');
  const gen = (f: () => string): string[] => [...new Set(Array.from({ length: n * 3 }, f))].slice(0, n);
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const spans: Record<string, number> = { '5m': DAY_MS, '15m': 3 * DAY_MS, '1h': 7 * DAY_MS, '4h': 30 * DAY_MS, '1d': 365 * DAY_MS };
  const windowOf = (interval: string): string => {
    if (r() < 0.5) return '';
    const to = hour - Math.floor(r() * 48) * HOUR_MS;
    return `&from=${iso(to - spans[interval]!)}&to=${iso(to)}`;
  };
  const q = (parts: string[]): string => {
    const s = parts.filter(Boolean).join('&');
    return s ? `?${s}` : '';
  };
  const fine = ['5m', '15m', '1h', '4h', '1d'];
  const coarse = ['1h', '4h', '1d'];
  const sorts13 = ['net_pnl', 'volume', 'win_rate', 'positions', 'current_notional'];
  const sorts15 = ['opened_at', 'closed_at', 'size', 'pnl', 'leverage'];
  const sorts16 = ['size', 'pnl', 'collateral', 'leverage', 'opened_at', 'liq_proximity'];
  const order = (): string => maybe(0.5, `order=${pick(['asc', 'desc'])}`);
  const windowed = (path: string, intervals: string[], scope: () => string): string => {
    const interval = pick(intervals);
    return `${path}${q([scope(), `interval=${interval}`])}${windowOf(interval)}`;
  };
  return [
    { name: '1 protocols', paths: ['/v1/protocols'] },
    { name: '2 protocols/stats', paths: ['/v1/protocols/stats'] },
    { name: '3 alpha/markets', paths: ['/v1/alpha/markets'] },
    { name: '4 alpha/markets/stats', paths: ['/v1/alpha/markets/stats'] },
    {
      name: '5 liquidations/search',
      paths: gen(
        () =>
          `/v1/alpha/liquidations/search${q([
            maybe(0.5, `market=${enc(pick(d.markets))}`),
            maybe(0.2, `market_variant=${enc(pick(d.variants))}`),
            `limit=${pick([20, 50, 100, 500])}`,
          ])}${r() < 0.3 ? `&to=${iso(hour - Math.floor(r() * 30) * DAY_MS)}` : ''}`,
      ),
    },
    { name: '6 liquidations/history', paths: gen(() => windowed('/v1/alpha/liquidations/history', coarse, () => maybe(0.6, `market=${enc(pick(d.markets))}`))) },
    { name: '7 open-interest', paths: ['/v1/alpha/open-interest', ...d.variants.map((v) => `/v1/alpha/open-interest?market_variant=${enc(v)}`)] },
    { name: '8 open-interest/history', paths: gen(() => windowed('/v1/alpha/open-interest/history', fine, () => maybe(0.6, `market=${enc(pick(d.markets))}`))) },
    { name: '9 volume/history', paths: gen(() => windowed('/v1/alpha/volume/history', fine, () => maybe(0.6, `market=${enc(pick(d.markets))}`))) },
    { name: '10 funding-rates', paths: ['/v1/alpha/funding-rates', ...d.variants.map((v) => `/v1/alpha/funding-rates?market_variant=${enc(v)}`)] },
    { name: '11 funding-rates/history', paths: gen(() => windowed('/v1/alpha/funding-rates/history', coarse, () => `market_variant=${enc(pick(d.variants))}`)) },
    { name: '12 accounts/stats', paths: ['/v1/alpha/accounts/stats'] },
    {
      name: '13 accounts/search',
      paths: gen(
        () =>
          `/v1/alpha/accounts/search${q([
            `sort_by=${pick(sorts13)}`,
            order(),
            maybe(0.3, `min_trades=${pick([1, 5, 20, 100])}`),
            maybe(0.3, `has_active_positions=${pick(['true', 'false'])}`),
            maybe(0.2, `search=${pick(d.addresses).slice(0, 4 + Math.floor(r() * 3))}`),
            maybe(0.3, `offset=${pick([50, 100, 500, 2000])}`),
            `limit=${pick([20, 50, 100])}`,
          ])}`,
      ),
    },
    { name: '14 accounts/:address', paths: gen(() => `/v1/alpha/accounts/${pick(d.addresses)}`) },
    {
      name: '15 accounts/:address/history',
      paths: gen(
        () => `/v1/alpha/accounts/${pick(d.addresses)}/history${q([maybe(0.5, `sort_by=${pick(sorts15)}`), order(), maybe(0.2, `market=${enc(pick(d.markets))}`), `limit=${pick([20, 50, 100])}`])}`,
      ),
    },
    {
      name: '16 open-positions/search',
      paths: gen(
        () =>
          `/v1/alpha/open-positions/search${q([
            maybe(0.4, `market=${enc(pick(d.markets))}`),
            maybe(0.15, `market_variant=${enc(pick(d.variants))}`),
            maybe(0.1, `address=${pick(d.open.length ? d.open : d.closed)[0]}`),
            maybe(0.3, `side=${pick(['long', 'short'])}`),
            maybe(0.3, `min_size_usd=${pick([1000, 10000, 100000])}`),
            `sort_by=${pick(sorts16)}`,
            order(),
            maybe(0.2, `offset=${pick([50, 100, 500])}`),
            `limit=${pick([20, 50, 100])}`,
          ])}`,
      ),
    },
    { name: '17 open-positions/stats', paths: ['/v1/alpha/open-positions/stats', ...d.markets.map((m) => `/v1/alpha/open-positions/stats?market=${enc(m)}`)] },
    {
      name: '18 positions/:address/:id',
      paths: gen(() => {
        const [a, id] = pick(r() < 0.5 && d.open.length ? d.open : d.closed);
        return `/v1/alpha/positions/${a}/${id}`;
      }),
    },
    {
      name: '19 positions/:address/:id/lifecycle',
      paths: gen(() => {
        const [a, id] = pick(r() < 0.5 && d.open.length ? d.open : d.closed);
        return `/v1/alpha/positions/${a}/${id}/lifecycle${q([maybe(0.3, `sort_by=${pick(['time', 'size'])}`), order(), maybe(0.2, `include_collateral_events=true`)])}`;
      }),
    },
    { name: '20 beta/markets', paths: ['/v1/beta/markets'] },
    { name: '21 beta/markets/stats', paths: ['/v1/beta/markets/stats'] },
    ...betaWorkloads(d.beta, { pick, maybe, gen, q, order, windowed, fine, coarse, sorts13, sorts15, sorts16 }),
    ...[
      ['alpha', d.markets, d.addresses],
      ['beta', d.beta.markets, d.beta.addresses],
    ].flatMap(([p, markets, addresses]) => [
      {
        name: `f${p === 'beta' ? 'b' : 'a'} ${p}/fills`,
        paths: gen(
          () =>
            `/v1/${p}/fills${q([
              maybe(0.4, `address=${pick(addresses as string[])}`),
              maybe(0.4, `market=${enc(pick(markets as string[]))}`),
              maybe(0.2, `type=${pick(['open', 'increase', 'decrease', 'close', 'liquidation'])}`),
              maybe(0.2, `side=${pick(['long', 'short'])}`),
              maybe(0.2, `min_size_usd=${pick([1000, 10000, 100000])}`),
              maybe(0.3, `limit=${pick([25, 100, 500])}`),
            ])}`,
        ),
      },
      { name: `p${p === 'beta' ? 'b' : 'a'} ${p}/prices/history`, paths: gen(() => windowed(`/v1/${p}/prices/history`, fine, () => `market=${enc(pick(markets as string[]))}`)) },
    ]),
  ];
}

/** The helpers {@link endpointWorkloads} draws its requests with. */
interface Draw {
  pick: <T>(xs: readonly T[]) => T;
  maybe: (p: number, s: string) => string;
  gen: (f: () => string) => string[];
  q: (parts: string[]) => string;
  order: () => string;
  windowed: (path: string, intervals: string[], scope: () => string) => string;
  fine: string[];
  coarse: string[];
  sorts13: string[];
  sorts15: string[];
  sorts16: string[];
}

/** Beta's twins of the alpha workloads from `/liquidations/search` to `/positions/{address}/{id}/lifecycle` (named `b5` … `b19` after theirs; beta has no variants and funding history takes a market). */
function betaWorkloads(b: BenchData['beta'], x: Draw): EndpointWorkload[] {
  const { pick, maybe, gen, q, order, windowed } = x;
  const market = () => maybe(0.6, `market=${enc(pick(b.markets))}`);
  const lifecycle = () => pick(maybe(0.5, 'open') && b.open.length ? b.open : b.closed.length ? b.closed : b.open);
  return [
    { name: 'b5 beta/liquidations/search', paths: gen(() => `/v1/beta/liquidations/search${q([market(), maybe(0.3, `limit=${pick([25, 100, 500])}`)])}`) },
    { name: 'b6 beta/liquidations/history', paths: gen(() => windowed('/v1/beta/liquidations/history', x.coarse, market)) },
    { name: 'b7 beta/open-interest', paths: ['/v1/beta/open-interest'] },
    { name: 'b8 beta/open-interest/history', paths: gen(() => windowed('/v1/beta/open-interest/history', x.fine, market)) },
    { name: 'b9 beta/volume/history', paths: gen(() => windowed('/v1/beta/volume/history', x.fine, market)) },
    { name: 'b10 beta/funding-rates', paths: ['/v1/beta/funding-rates'] },
    { name: 'b11 beta/funding-rates/history', paths: gen(() => windowed('/v1/beta/funding-rates/history', x.coarse, () => `market=${enc(pick(b.markets))}`)) },
    { name: 'b12 beta/accounts/stats', paths: ['/v1/beta/accounts/stats'] },
    {
      name: 'b13 beta/accounts/search',
      paths: gen(
        () =>
          `/v1/beta/accounts/search${q([
            maybe(0.7, `sort_by=${pick(x.sorts13)}`),
            order(),
            maybe(0.2, 'has_active_positions=true'),
            maybe(0.2, `min_trades=${pick([1, 5, 20])}`),
            maybe(0.3, `offset=${pick([0, 500, 5000])}`),
          ])}`,
      ),
    },
    { name: 'b14 beta/accounts/:address', paths: gen(() => `/v1/beta/accounts/${pick(b.addresses)}`) },
    { name: 'b15 beta/accounts/:address/history', paths: gen(() => `/v1/beta/accounts/${pick(b.addresses)}/history${q([maybe(0.5, `sort_by=${pick(x.sorts15)}`), order()])}`) },
    {
      name: 'b16 beta/open-positions/search',
      paths: gen(
        () =>
          `/v1/beta/open-positions/search${q([market(), maybe(0.2, `side=${pick(['long', 'short'])}`), maybe(0.6, `sort_by=${pick(x.sorts16)}`), order(), maybe(0.2, `offset=${pick([0, 500])}`)])}`,
      ),
    },
    { name: 'b17 beta/open-positions/stats', paths: ['/v1/beta/open-positions/stats', ...b.markets.map((m) => `/v1/beta/open-positions/stats?market=${enc(m)}`)] },
    {
      name: 'b18 beta/positions/:address/:id',
      paths: gen(() => {
        const [a, id] = lifecycle();
        return `/v1/beta/positions/${a}/${id}`;
      }),
    },
    {
      name: 'b19 beta/positions/:address/:id/lifecycle',
      paths: gen(() => {
        const [a, id] = lifecycle();
        return `/v1/beta/positions/${a}/${id}/lifecycle${q([maybe(0.3, `sort_by=${pick(['time', 'size'])}`), order()])}`;
      }),
    },
  ];
}
