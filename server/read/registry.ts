/**
 * Every read model of the service, listed once: built over a service, opened together, and asked
 * together whether they are ready (GET /health's `warming`) or loaded (tests).
 */
import type { Service } from '../service.ts';
import { AccountsIndex } from './accounts/accounts-index.ts';
import { prefetchEdges } from './buckets/edge-prefetch.ts';
import { HistoryMirror } from './buckets/history-mirror.ts';
import { FundingIndex } from './funding/funding-index.ts';
import { HistoryIndex } from './lifecycles/history-index.ts';
import { LifecycleStore } from './lifecycles/lifecycle-store.ts';
import { LiquidationIndex } from './liquidations/liquidation-index.ts';
import type { ReadModel } from './model.ts';
import { OpenPositionsIndex } from './open-positions/open-positions-index.ts';

/** The read models the routes answer from. */
export interface ReadModels {
  /** both protocols' closed lifecycles sorted by address, in DuckDB (`GET /v1/{protocol}/accounts/{address}/history`, positions) */
  history: HistoryIndex;
  /** alpha's 5-minute buckets of open interest, volume and liquidations (the history endpoints) */
  mirror: HistoryMirror;
  /** beta's 5-minute buckets of open interest, volume and liquidations */
  betaMirror: HistoryMirror;
  /** alpha's liquidation events (`GET /v1/alpha/liquidations/search`) */
  liquidations: LiquidationIndex;
  /** beta's liquidation events (`GET /v1/beta/liquidations/search`) */
  betaLiquidations: LiquidationIndex;
  /** alpha's hourly funding rows (`GET /v1/alpha/funding-rates/history`) */
  funding: FundingIndex;
  /** alpha's on-disk store of closed lifecycles (account history, positions, lifecycles) */
  lifecycles: LifecycleStore;
  /** beta's on-disk store of closed lifecycles */
  betaLifecycles: LifecycleStore;
  /** alpha's accounts (`/v1/alpha/accounts/…`, and the account check of its history) */
  accounts: AccountsIndex;
  /** beta's accounts (`/v1/beta/accounts/…`) */
  betaAccounts: AccountsIndex;
  /** alpha's open positions (`/v1/alpha/open-positions/…`, and the live fields of positions) */
  openPositions: OpenPositionsIndex;
  /** beta's open positions (`/v1/beta/open-positions/…`, and the live fields of its positions) */
  betaOpenPositions: OpenPositionsIndex;
}

/** The models and the interface each shows the service, in the order they open. */
export interface ReadModelRegistry {
  models: ReadModels;
  all: readonly ReadModel[];
}

/**
 * Builds every read model. `service` is the one routes see (the response cache's clock-tracking
 * view); `base` the service itself, whose lifecycle store is shared per data directory and whose
 * clock drives the bucket prefetch. `history` may be given (tests set its rebuild threshold).
 */
export function readModels(service: Service, base: Service, history: HistoryIndex = new HistoryIndex(base)): ReadModelRegistry {
  const models: ReadModels = {
    history,
    mirror: new HistoryMirror(service),
    betaMirror: new HistoryMirror(service, {}, 'beta'),
    liquidations: new LiquidationIndex(service),
    betaLiquidations: new LiquidationIndex(service, 'beta'),
    funding: new FundingIndex(service),
    lifecycles: LifecycleStore.of(base),
    betaLifecycles: LifecycleStore.of(base, 'beta'),
    accounts: new AccountsIndex(service),
    betaAccounts: new AccountsIndex(service, undefined, 'beta'),
    openPositions: new OpenPositionsIndex(service),
    betaOpenPositions: new OpenPositionsIndex(service, 'beta'),
  };
  const { mirror, betaMirror, liquidations, betaLiquidations, funding, lifecycles, betaLifecycles, accounts, betaAccounts } = models;
  const { openPositions, betaOpenPositions } = models;
  const buckets = (name: string, m: HistoryMirror): ReadModel => ({
    name,
    open: () => {
      m.open();
      // its timer reads the database: it stops when the service closes it
      base.db.onClose(prefetchEdges(m, () => base.now()));
    },
    ready: () => m.warm(),
    loaded: () => m.loaded(),
  });
  const all: ReadModel[] = [
    { name: 'history-index', open: () => void history.open(), ready: () => !history.behind() },
    { name: 'lifecycles', open: () => void lifecycles.follow(history), ready: () => !lifecycles.busy() },
    { name: 'beta-lifecycles', open: () => void betaLifecycles.follow(history), ready: () => !betaLifecycles.busy() },
    buckets('buckets', mirror),
    buckets('beta-buckets', betaMirror),
    { name: 'liquidations', open: () => liquidations.open(), ready: () => liquidations.warm(), loaded: () => liquidations.loaded() },
    {
      name: 'beta-liquidations',
      open: () => betaLiquidations.open(),
      ready: () => betaLiquidations.warm(),
      loaded: () => betaLiquidations.loaded(),
    },
    { name: 'funding', open: () => funding.open(), ready: () => funding.warm(), loaded: () => funding.loaded() },
    { name: 'accounts', open: () => accounts.open(), ready: () => accounts.warm(), loaded: () => accounts.loaded() },
    { name: 'beta-accounts', open: () => betaAccounts.open(), ready: () => betaAccounts.warm(), loaded: () => betaAccounts.loaded() },
    { name: 'open-positions', open: () => openPositions.open(), ready: () => openPositions.warm() },
    { name: 'beta-open-positions', open: () => betaOpenPositions.open(), ready: () => betaOpenPositions.warm() },
  ];
  return { models, all };
}
