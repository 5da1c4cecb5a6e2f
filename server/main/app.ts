/**
 * The HTTP face of the service: an h3 v2 app built from the REST routes as data ({@link RestRoute},
 * routes/define.ts), so the same list ({@link restRoutes}) can feed the OpenAPI document and MCP.
 *
 * Per request, in the contract's order (§2): route (unknown → 404) → method (not GET or HEAD → 405) →
 * auth (401) → plan gate, rate limit and credits (429, server/limits/gate.ts) → query validation
 * (400) → handler (one SQL file). Credits are reserved at admission and refunded unless the
 * handler succeeds (a 4xx or 5xx costs nothing).
 * Every answer, errors included, carries `x-request-id` and `x-api-version`, and every error
 * body is ours (`onError`), never h3's. `/v1/mcp` (server/mcp/endpoint.ts) wraps the same routes;
 * `/health` (server/http/health.ts) is the operators' unauthenticated probe. A repeated request the
 * response cache holds is answered before h3 by the app's hit lane (server/http/hit-lane.ts).
 */
import { H3 } from 'h3';
import { ResponseCache } from '../cache/response-cache.ts';
import { AccountsIndex } from '../read/accounts/accounts-index.ts';
import { FundingIndex } from '../read/funding/funding-index.ts';
import { HistoryMirror } from '../read/buckets/history-mirror.ts';
import { LiquidationIndex } from '../read/liquidations/liquidation-index.ts';
import { OpenPositionsIndex } from '../read/open-positions/open-positions-index.ts';
import type { LifecycleStore } from '../read/lifecycles/lifecycle-store.ts';
import { HistoryIndex } from '../read/lifecycles/history-index.ts';
import { readModels } from '../read/registry.ts';
import { DATA_SOURCE_HEADER, stageHeader } from '../http/answer-headers.ts';
import { handleError } from '../http/errors.ts';
import { HitLane } from '../http/hit-lane.ts';
import { mountRoute } from '../http/mount-route.ts';
import { mountHealth } from '../http/health.ts';
import { mountBrowserAccess, type CorsPolicy } from '../http/browser-access.ts';
import { mountExplorer } from '../http/explorer.ts';
import { mountDocs } from '../http/docs-page.ts';
import type { RestRoute } from '../http/routes/define.ts';
import { openapiRoutes } from '../http/routes/openapi.ts';
import { protocolRoutes } from '../http/routes/protocols.ts';
import { alphaMarketRoutes } from '../http/routes/alpha-markets.ts';
import { betaMarketRoutes } from '../http/routes/beta-markets.ts';
import { liquidationRoutes } from '../http/routes/liquidations.ts';
import { currentRoutes } from '../http/routes/current.ts';
import { accountRoutes } from '../http/routes/accounts.ts';
import { historyRoutes } from '../http/routes/history.ts';
import { openPositionRoutes } from '../http/routes/open-positions.ts';
import { positionRoutes } from '../http/routes/positions.ts';
import { fillRoutes } from '../http/routes/fills.ts';
import { priceRoutes } from '../http/routes/prices.ts';
import { observeGcPauses } from '../lib/gc-pauses.ts';
import type { KeyStore } from '../keys/store.ts';
import { mountMcp } from '../mcp/endpoint.ts';
import type { Limits } from '../limits/gate.ts';
import type { Service } from '../service.ts';
import type { StreamHub } from '../stream/hub.ts';
import { mountStream } from '../stream/route.ts';

/** The in-memory working sets some routes answer from, shared with whoever opens them. */
export interface RouteParts {
  /** the read index of `GET /v1/alpha/accounts/{address}/history` and `GET /v1/alpha/positions/{address}/{id}` (default: a new one, opened by its first request) */
  history?: HistoryIndex;
  /** the 5-minute buckets of the liquidation, open-interest and volume history routes (default: a new one, loaded on first use) */
  mirror?: HistoryMirror;
  /** beta's the liquidation, open-interest and volume history routes' 5-minute buckets (default: a new one, loaded on first use) */
  betaMirror?: HistoryMirror;
  /** `GET /v1/{protocol}/liquidations/search`'s events (default: a new one, loaded on first use) */
  liquidations?: LiquidationIndex;
  /** beta's `GET /v1/{protocol}/liquidations/search`'s events (default: a new one, loaded on first use) */
  betaLiquidations?: LiquidationIndex;
  /** `GET /v1/{protocol}/funding-rates/history`'s hourly funding rows (default: a new one, loaded on first use) */
  funding?: FundingIndex;
  /** the closed lifecycles of account history, position detail and lifecycle timeline (default: the service's, LifecycleStore.of) */
  lifecycles?: LifecycleStore;
  /** beta's closed lifecycles for its `GET /v1/{protocol}/accounts/{address}/history` (default: the service's, LifecycleStore.of(service, 'beta')) */
  betaLifecycles?: LifecycleStore;
  /** the accounts routes' (and the account-history route's account check) alpha accounts (default: a new one, loaded on first use) */
  accounts?: AccountsIndex;
  /** open positions of `GET /v1/alpha/open-positions/search`, whose live fields position detail and lifecycle timeline show too (default: a new one, loaded on first use) */
  openPositions?: OpenPositionsIndex;
  /** beta's open positions (default: a new one, loaded on first use) */
  betaOpenPositions?: OpenPositionsIndex;
  /** the accounts behind beta's `/accounts/stats`, `/accounts/search`, `/accounts/{address}` (and the account check of `/accounts/{address}/history`) (default: a new one, loaded on first use) */
  betaAccounts?: AccountsIndex;
}

/** Every REST route of the service, in registration order. */
export function restRoutes(service: Service, parts: RouteParts = {}): RestRoute[] {
  const {
    history = new HistoryIndex(service),
    mirror = new HistoryMirror(service),
    betaMirror = new HistoryMirror(service, {}, 'beta'),
    liquidations = new LiquidationIndex(service),
    betaLiquidations = new LiquidationIndex(service, 'beta'),
    funding = new FundingIndex(service),
    lifecycles,
    betaLifecycles,
    accounts = new AccountsIndex(service),
    openPositions = new OpenPositionsIndex(service),
    betaOpenPositions = new OpenPositionsIndex(service, 'beta'),
    betaAccounts = new AccountsIndex(service, undefined, 'beta'),
  } = parts;
  const routes: RestRoute[] = [
    ...openapiRoutes(service, () => routes),
    ...protocolRoutes(service),
    ...alphaMarketRoutes(service),
    ...betaMarketRoutes(service),
    // each protocol answers from its own in-memory working sets when loaded, else from SQL
    ...liquidationRoutes(service, 'alpha', liquidations),
    ...currentRoutes(service, 'alpha'),
    ...accountRoutes(service, 'alpha', accounts),
    ...historyRoutes(service, 'alpha', mirror, funding),
    ...openPositionRoutes(service, 'alpha', openPositions),
    ...positionRoutes(service, { history, accounts, openPositions, lifecycles }),
    ...liquidationRoutes(service, 'beta', betaLiquidations),
    ...currentRoutes(service, 'beta'),
    ...accountRoutes(service, 'beta', betaAccounts),
    ...historyRoutes(service, 'beta', betaMirror, null),
    ...openPositionRoutes(service, 'beta', betaOpenPositions),
    ...positionRoutes(service, { history, accounts: betaAccounts, openPositions: betaOpenPositions, lifecycles: betaLifecycles }, 'beta'),
    ...fillRoutes(service, 'alpha'),
    ...fillRoutes(service, 'beta'),
    ...priceRoutes(service, 'alpha'),
    ...priceRoutes(service, 'beta'),
  ];
  return routes;
}

const backgroundLoads = new WeakMap<H3, () => Promise<void>>();
const hitLanes = new WeakMap<H3, HitLane>();

/** The hit lane of an app made by {@link createApp} (server/http/hit-lane.ts), for the server to put in front. */
export function hitLaneOf(app: H3): HitLane | undefined {
  return hitLanes.get(app);
}

/**
 * Resolves once the app's in-memory working sets of both protocols (the history buckets' mirror,
 * liquidation search's events, hourly funding rows, the accounts) answer, so that requests take the
 * in-memory paths rather than their SQL fallbacks (tests).
 */
export function appLoaded(app: H3): Promise<void> {
  return backgroundLoads.get(app)?.() ?? Promise.resolve();
}

/** Optional parts of the app. */
export interface AppOptions {
  /** mounts the fills stream (`GET /v1/stream/{protocol}/fills`) on this hub */
  stream?: StreamHub;
  /** the response cache (default: a new one over `service`) */
  cache?: ResponseCache;
  /** the read index of `GET /v1/alpha/accounts/{address}/history` and `GET /v1/alpha/positions/{address}/{id}` (default: a new one over `service`, rebuilt past 20,000 closes) */
  history?: HistoryIndex;
  /** origins whose pages may call the API (default: `PERPS_CORS_ORIGINS`, server/http/browser-access.ts) */
  cors?: CorsPolicy;
}

/**
 * Builds the h3 app over a service, a key store and the limit state (rate limiter + monthly usage,
 * see server/limits/gate.ts `openLimits`); the caller owns `limits` and closes it on shutdown.
 * With a stream hub, the fills stream (`GET /v1/stream/{protocol}/fills`, server/stream/route.ts) is
 * mounted too; its sockets need a real server with the crossws plugin (server/main/serve.ts).
 */
export function createApp(service: Service, keys: KeyStore, limits: Limits, opts: AppOptions = {}): H3 {
  const { stream, cache = new ResponseCache(service), history } = opts;
  const app = new H3({ silent: true, onError: handleError });
  // provenance on every answer, errors included: which source feeds the data (simulated, solana, replay)
  app.use((event) => void stageHeader(event, DATA_SOURCE_HEADER, service.source.dataSource()));
  observeGcPauses(); // for /health (once per process)
  // routes read the clock through the cache's view, so clock-dependent answers are not cached
  const { models, all } = readModels(cache.service, service, history);
  const routes = restRoutes(cache.service, models);
  // at once rather than on the first request that needs them: each loads in the background (a long
  // history tail is rebuilt meanwhile) and its routes answer from SQL until it is done; a failure
  // is logged there
  for (const model of all) model.open();
  backgroundLoads.set(app, () => Promise.all(all.map((m) => m.loaded?.())).then(() => undefined));
  const lane = new HitLane(cache, keys, limits);
  hitLanes.set(app, lane);
  mountBrowserAccess(app, lane, opts.cors);
  for (const route of routes) mountRoute(app, route, keys, limits, cache, lane);
  const warming = () => all.some((m) => !m.ready());
  mountHealth(app, service, cache, warming);
  mountDocs(app);
  mountMcp({ app, service, keys, limits, routes });
  mountExplorer(app);
  if (stream) mountStream(app, stream, keys, limits);
  return app;
}
