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
  /** the closed alpha lifecycles sorted by address, in DuckDB (`GET /v1/alpha/accounts/{address}/history`, positions) */
  history: HistoryIndex;
  /** the 5-minute buckets of open interest, volume and liquidations (the history endpoints) */
  mirror: HistoryMirror;
  /** alpha's liquidation events (`GET /v1/alpha/liquidations/search`) */
  liquidations: LiquidationIndex;
  /** alpha's hourly funding rows (`GET /v1/alpha/funding-rates/history`) */
  funding: FundingIndex;
  /** the on-disk store of closed lifecycles (account history, positions, lifecycles) */
  lifecycles: LifecycleStore;
  /** alpha's accounts (`/v1/alpha/accounts/…`, and the account check of its history) */
  accounts: AccountsIndex;
  /** beta's accounts (`/v1/beta/accounts/…`) */
  betaAccounts: AccountsIndex;
  /** alpha's open positions (`/v1/alpha/open-positions/…`, and the live fields of positions) */
  openPositions: OpenPositionsIndex;
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
    liquidations: new LiquidationIndex(service),
    funding: new FundingIndex(service),
    lifecycles: LifecycleStore.of(base),
    accounts: new AccountsIndex(service),
    betaAccounts: new AccountsIndex(service, undefined, 'beta'),
    openPositions: new OpenPositionsIndex(service),
  };
  const { mirror, liquidations, funding, lifecycles, accounts, betaAccounts, openPositions } = models;
  const all: ReadModel[] = [
    { name: 'history-index', open: () => void history.open(), ready: () => !history.behind() },
    { name: 'lifecycles', open: () => void lifecycles.follow(history), ready: () => !lifecycles.busy() },
    {
      name: 'buckets',
      open: () => {
        mirror.open();
        // its timer reads the database: it stops when the service closes it
        base.db.onClose(prefetchEdges(mirror, () => base.now()));
      },
      ready: () => mirror.warm(),
      loaded: () => mirror.loaded(),
    },
    { name: 'liquidations', open: () => liquidations.open(), ready: () => liquidations.warm(), loaded: () => liquidations.loaded() },
    { name: 'funding', open: () => funding.open(), ready: () => funding.warm(), loaded: () => funding.loaded() },
    { name: 'accounts', open: () => accounts.open(), ready: () => accounts.warm(), loaded: () => accounts.loaded() },
    { name: 'beta-accounts', open: () => betaAccounts.open(), ready: () => betaAccounts.warm(), loaded: () => betaAccounts.loaded() },
    { name: 'open-positions', open: () => openPositions.open(), ready: () => openPositions.warm() },
  ];
  return { models, all };
}
