/**
 * The `describe_service` tool: what an agent should know before its first question. Protocols with
 * their markets (grouped symbols and variants), data coverage per protocol (first / last fill time
 * and seq, market- and position-snapshot coverage), freshness (the journal's last append and its
 * age) and the caller's plan: limits, history depths, credits left this month and each tool's cost.
 *
 * Metering: it costs 0 credits but counts as a request against the key's rate limit (it runs a few
 * small queries, and an agent calls it once per conversation; charging credits for "what can I
 * do" would be unfriendly). Its answer has no REST twin, so its `structuredContent` is `{ data }`
 * in the REST envelope style.
 */
import { statSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { checkpointPath } from '../journal/checkpoint.ts';
import { PROTOCOL_INFO } from '../http/routes/protocols.ts';
import { getPlan, type PlanName } from '../keys/plans.ts';
import type { Service } from '../service.ts';
import { dataSourceSentence } from '../http/openapi.ts';

/** The description listed by `tools/list`. */
export const DESCRIBE_SERVICE_DESCRIPTION =
  'Start here. Describes the service: the protocols (alpha = GMX-Solana, beta = Jupiter Perps) with their markets ' +
  '(grouped symbols such as SOL-PERP and native variants such as SOL/USD[WSOL-USDC]), data coverage per protocol ' +
  "(data_source: simulated, solana or replay: simulated numbers are synthetic, never present them as the chain's; " +
  'first and last fill time and journal seq, since when market snapshots exist, position snapshots), freshness ' +
  '(last append time and its age in seconds), and your plan: requests per minute, monthly credits and credits left, ' +
  'history depths in days (null = full history) and the credit cost of each tool. Tools serving both protocols take ' +
  '`protocol` (alpha or beta); omitted, they answer for alpha. Costs no credits; counts against the rate limit.';

/** What describe_service needs besides the service. */
export interface DescribeContext {
  plan: PlanName;
  /** credits left this month; null = not metered */
  creditsRemaining: number | null;
  /** tool name → credits per successful call */
  costs: Record<string, number>;
}

/** The journal's last commit time (epoch ms, wall clock), or null for an empty journal. */
function lastAppendMs(dataDir: string): number | null {
  try {
    return statSync(checkpointPath(dataDir)).mtimeMs;
  } catch {
    return null;
  }
}

/** Builds the describe_service payload (`{ data }`). */
export async function describeService(service: Service, ctx: DescribeContext): Promise<Record<string, unknown>> {
  const [coverage, alphaMarkets, betaMarkets] = await Promise.all([service.db.query('mcp/coverage'), service.db.query('api/alpha-markets'), service.db.query('api/beta-markets')]);
  const marketsOf: Record<string, unknown[]> = { alpha: alphaMarkets, beta: betaMarkets };
  const protocols = PROTOCOL_INFO.map((info) => {
    const { protocol: _p, ...cover } = coverage.find((row) => row.protocol === info.id) ?? {};
    return { ...info, markets: marketsOf[info.id] ?? [], coverage: cover };
  });
  const appended = lastAppendMs(service.dataDir);
  const plan = getPlan(ctx.plan);
  const source = service.source.dataSource();
  return {
    data: {
      data_source: { source, simulated: source === 'simulated', description: dataSourceSentence(source) },
      protocols,
      freshness: {
        now: new Date(service.now()).toISOString(),
        last_seq: service.lastSeq(),
        last_append_at: appended === null ? null : new Date(appended).toISOString(),
        last_append_age_seconds: appended === null ? null : Math.max(0, Math.round((Date.now() - appended) / 1000)),
      },
      plan: {
        name: plan.name,
        requests_per_minute: plan.requestsPerMinute,
        credits_per_month: plan.creditsPerMonth,
        credits_remaining: ctx.creditsRemaining,
        history_days: plan.historyDays,
        funding_history_days: plan.fundingHistoryDays,
        liquidation_lookback_days: plan.liquidationLookbackDays,
        max_rows_per_page: 500,
        tool_costs: ctx.costs,
      },
    },
  };
}

/** The one-line summary of a describe_service answer. */
export function describeSummary(payload: Record<string, unknown>): string {
  const data = payload.data as {
    data_source: { source: string };
    protocols: { id: string; markets: unknown[]; coverage: { fills?: number; last_fill_at?: string | null } }[];
    freshness: { last_append_age_seconds: number | null };
    plan: { name: string; credits_remaining: number | null };
  };
  const parts = data.protocols.map((p) => `${p.id}: ${p.markets.length} markets, ${p.coverage.fills ?? 0} fills up to ${p.coverage.last_fill_at ?? 'none'}`);
  const age = data.freshness.last_append_age_seconds;
  const credits = data.plan.credits_remaining === null ? 'unmetered' : `${data.plan.credits_remaining} credits left`;
  const source = data.data_source.source === 'simulated' ? "SIMULATED data (not the chain's)" : `data source ${data.data_source.source}`;
  return (
    `Service (${source}): ${parts.join('; ')}. Last append ${age === null ? 'never' : `${age} s ago`}. Plan ${data.plan.name}, ${credits}. ` +
    'Tools serving both protocols take protocol=alpha|beta (default alpha).'
  );
}

/** describe_service as a tool result. */
export async function describeServiceResult(service: Service, ctx: DescribeContext): Promise<CallToolResult> {
  const payload = await describeService(service, ctx);
  // the summary only: the payload itself is structuredContent, not repeated as text
  return {
    content: [{ type: 'text', text: describeSummary(payload) }],
    structuredContent: payload,
  };
}
