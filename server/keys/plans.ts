/**
 * The plan table of the contract (§3) as data. Enforcement (rate limits, credits, history clamps,
 * stream and MCP gates) reads it elsewhere; `null` means "no limit" / "full history".
 */

export type PlanName = 'trial' | 'starter' | 'pro' | 'premium' | 'internal';

/** Every plan, in table order. */
export const PLAN_NAMES: readonly PlanName[] = ['trial', 'starter', 'pro', 'premium', 'internal'];
/** The plans that are sold (and get a demo key); `internal` is created only with the CLI. */
export const SOLD_PLANS: readonly PlanName[] = ['trial', 'starter', 'pro', 'premium'];

export interface Plan {
  name: PlanName;
  /** requests per minute; null = not rate-limited */
  requestsPerMinute: number | null;
  /** credits per calendar month; null = not metered */
  creditsPerMonth: number | null;
  /** history depth in days of OI, volume and account history (`GET /v1/alpha/open-interest/history`, `GET /v1/alpha/volume/history` and `GET /v1/alpha/accounts/{address}/history`); null = full */
  historyDays: number | null;
  /** history depth in days of funding history (`GET /v1/alpha/funding-rates/history`) */
  fundingHistoryDays: number;
  /** lookback in days of liquidation search and history (`GET /v1/alpha/liquidations/search` and `GET /v1/alpha/liquidations/history`); null = full */
  liquidationLookbackDays: number | null;
  /** may open the fills stream (`GET /v1/stream/{protocol}/fills`) */
  stream: boolean;
  /** concurrent stream connections per account; null = no cap; 0 without stream */
  streamConnectionsPerAccount: number | null;
  /** may use MCP (`/v1/mcp`) */
  mcp: boolean;
}

/** The contract's plan table. */
export const PLANS: Readonly<Record<PlanName, Readonly<Plan>>> = Object.freeze({
  trial: {
    name: 'trial',
    requestsPerMinute: 60,
    creditsPerMonth: 10_000,
    historyDays: 30,
    fundingHistoryDays: 30,
    liquidationLookbackDays: 7,
    stream: false,
    streamConnectionsPerAccount: 0,
    mcp: false,
  },
  starter: {
    name: 'starter',
    requestsPerMinute: 300,
    creditsPerMonth: 250_000,
    historyDays: 30,
    fundingHistoryDays: 30,
    liquidationLookbackDays: 30,
    stream: false,
    streamConnectionsPerAccount: 0,
    mcp: false,
  },
  pro: {
    name: 'pro',
    requestsPerMinute: 1_200,
    creditsPerMonth: 2_000_000,
    historyDays: 90,
    fundingHistoryDays: 30,
    liquidationLookbackDays: 90,
    stream: false,
    streamConnectionsPerAccount: 0,
    mcp: true,
  },
  premium: {
    name: 'premium',
    requestsPerMinute: 3_000,
    creditsPerMonth: 10_000_000,
    historyDays: null,
    fundingHistoryDays: 30,
    liquidationLookbackDays: null,
    stream: true,
    streamConnectionsPerAccount: 50,
    mcp: true,
  },
  internal: {
    name: 'internal',
    requestsPerMinute: null,
    creditsPerMonth: null,
    historyDays: null,
    fundingHistoryDays: 30,
    liquidationLookbackDays: null,
    stream: true,
    streamConnectionsPerAccount: null,
    mcp: true,
  },
});

/** True when `value` names a plan. */
export function isPlanName(value: unknown): value is PlanName {
  return typeof value === 'string' && (PLAN_NAMES as readonly string[]).includes(value);
}

/** The limits of a plan. */
export function getPlan(name: PlanName): Readonly<Plan> {
  return PLANS[name];
}
