/**
 * `/v1/mcp` through the MCP SDK's own Client and StreamableHTTPClientTransport over a real port:
 * the tool list covers every REST route, each tool's structuredContent equals the REST body for
 * the same parameters, describe_service tells coverage and the plan.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serve } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../server/main/app.ts';
import type { PlanName } from '../../server/keys/plans.ts';
import { REST_TOOLS, UNWRAPPED_PATHS } from '../../server/mcp/catalog.ts';
import { TOOL_PAGE_ROWS } from '../../server/mcp/tools.ts';
import { defaultHistoryFrom } from '../../server/mcp/call-rest.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { A, DAY, MCP_FIXTURE, NOW, WSOL } from '../helpers/mcp-fixture.ts';

let t: TestApp;
let server: ReturnType<typeof serve>;
let base: URL;
const clients: Client[] = [];

/** A connected SDK client with the given plan's key in `x-api-key`. */
async function connect(plan: PlanName): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/v1/mcp', base), {
    requestInit: { headers: { 'x-api-key': t.key(plan) } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;

beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: MCP_FIXTURE() });
  server = serve(t.app, { port: 0, hostname: '127.0.0.1', silent: true });
  await server.ready();
  base = new URL(server.url!);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.close(true);
  await t?.close();
});

describe('tools/list', () => {
  it('covers every REST route but the OpenAPI document, with input schemas from the query schemas', async () => {
    const client = await connect('internal');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names[0]).toBe('describe_service');
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);

    const wrapped = REST_TOOLS.flatMap((tool) => [tool.paths.alpha, tool.paths.beta]).filter(Boolean);
    const routes = restRoutes(t.service)
      .map((r) => r.path)
      .filter((p) => !UNWRAPPED_PATHS.includes(p));
    expect([...wrapped].sort()).toEqual([...routes].sort());
    expect(names.slice(1).sort()).toEqual(REST_TOOLS.map((tool) => tool.name).sort());

    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const search = byName.get('search_accounts')!.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(search.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(search.properties.sort_by!.enum).toEqual(['net_pnl', 'volume', 'win_rate', 'positions', 'current_notional']);
    // `protocol` is optional (default alpha): clients written before beta's twins keep working
    expect(byName.get('list_markets')!.inputSchema).toMatchObject({
      properties: { protocol: { enum: ['alpha', 'beta'], default: 'alpha' } },
      additionalProperties: false,
    });
    expect(byName.get('list_markets')!.inputSchema.required).toBeUndefined();
    expect(byName.get('position_fills')!.inputSchema.required).toEqual(['address', 'id']);
    expect(byName.get('funding_rate_history')!.inputSchema.required).toBeUndefined();
    for (const tool of REST_TOOLS.filter((x) => x.paths.beta !== undefined)) {
      expect(byName.get(tool.name)!.description, tool.name).toContain('Without `protocol` the tool answers for alpha.');
    }
    expect(byName.get('describe_service')!.description).toMatch(/omitted, they answer for alpha/);
    expect(byName.get('search_liquidations')!.description).toMatch(/Costs 5 credits per call/);
    expect(byName.get('market_stats')!.description).toMatch(/per hour/);
  });
});

/** Each tool with arguments and the REST URL with the same parameters, written by hand. */
function cases(positionId: number): { tool: string; args: Record<string, unknown>; rest: string }[] {
  return [
    { tool: 'list_protocols', args: {}, rest: '/v1/protocols' },
    { tool: 'protocol_stats', args: {}, rest: '/v1/protocols/stats' },
    { tool: 'list_markets', args: { protocol: 'alpha' }, rest: '/v1/alpha/markets' },
    { tool: 'list_markets', args: { protocol: 'beta' }, rest: '/v1/beta/markets' },
    { tool: 'market_stats', args: { protocol: 'alpha' }, rest: '/v1/alpha/markets/stats' },
    { tool: 'market_stats', args: { protocol: 'beta' }, rest: '/v1/beta/markets/stats' },
    { tool: 'open_interest', args: { protocol: 'alpha', market_variant: WSOL }, rest: `/v1/alpha/open-interest?market_variant=${encodeURIComponent(WSOL)}` },
    {
      tool: 'open_interest_history',
      args: { protocol: 'alpha', market: 'sol-perp', interval: '1d', from: '2026-05-01' },
      rest: '/v1/alpha/open-interest/history?market=sol-perp&interval=1d&from=2026-05-01',
    },
    { tool: 'volume_history', args: { protocol: 'alpha', interval: '4h' }, rest: '/v1/alpha/volume/history?interval=4h' },
    { tool: 'funding_rates', args: { protocol: 'alpha' }, rest: '/v1/alpha/funding-rates' },
    {
      tool: 'funding_rate_history',
      args: { protocol: 'alpha', market_variant: WSOL, interval: '1h', to: '2026-06-02T00:00:00Z' },
      rest: `/v1/alpha/funding-rates/history?market_variant=${encodeURIComponent(WSOL)}&interval=1h&to=2026-06-02T00:00:00Z`,
    },
    { tool: 'search_liquidations', args: { protocol: 'alpha', limit: 1 }, rest: '/v1/alpha/liquidations/search?limit=1' },
    { tool: 'search_fills', args: { protocol: 'beta', side: 'long', limit: 2 }, rest: '/v1/beta/fills?side=long&limit=2' },
    { tool: 'price_history', args: { protocol: 'alpha', market: 'SOL-PERP', interval: '1d', from: '2026-05-25' }, rest: '/v1/alpha/prices/history?market=SOL-PERP&interval=1d&from=2026-05-25' },
    { tool: 'liquidation_history', args: { protocol: 'alpha', interval: '1d' }, rest: '/v1/alpha/liquidations/history?interval=1d' },
    { tool: 'accounts_summary', args: { protocol: 'alpha' }, rest: '/v1/alpha/accounts/stats' },
    {
      tool: 'search_accounts',
      args: { protocol: 'alpha', sort_by: 'volume', has_active_positions: true, limit: 5 },
      rest: '/v1/alpha/accounts/search?sort_by=volume&has_active_positions=true&limit=5',
    },
    { tool: 'get_account', args: { protocol: 'alpha', address: A }, rest: `/v1/alpha/accounts/${A}` },
    { tool: 'account_position_history', args: { protocol: 'alpha', address: A, sort_by: 'pnl' }, rest: `/v1/alpha/accounts/${A}/history?sort_by=pnl` },
    { tool: 'search_open_positions', args: { protocol: 'alpha', sort_by: 'liq_proximity', order: 'asc' }, rest: '/v1/alpha/open-positions/search?sort_by=liq_proximity&order=asc' },
    { tool: 'open_positions_summary', args: { protocol: 'alpha', market: 'SOL-PERP' }, rest: '/v1/alpha/open-positions/stats?market=SOL-PERP' },
    { tool: 'get_position', args: { protocol: 'alpha', address: A, id: positionId }, rest: `/v1/alpha/positions/${A}/${positionId}` },
    {
      tool: 'position_fills',
      args: { protocol: 'alpha', address: A, id: String(positionId), include_collateral_events: true, limit: 2 },
      rest: `/v1/alpha/positions/${A}/${positionId}/lifecycle?include_collateral_events=true&limit=2`,
    },
  ];
}

describe('tools/call equals REST', () => {
  it("gives each tool's REST body as structuredContent, with a one-line summary", async () => {
    const client = await connect('premium');
    const open = (await (await t.get('/v1/alpha/open-positions/search', 'premium')).json()) as { data: { position_id: number }[] };
    const positionId = open.data[0]!.position_id;
    const table = cases(positionId);
    expect(new Set(table.map((c) => c.tool))).toEqual(new Set(REST_TOOLS.map((tool) => tool.name)));
    for (const c of table) {
      const result = await call(client, c.tool, c.args);
      // a paged tool called without `limit` asks for TOOL_PAGE_ROWS rows
      const paged = restRoutes(t.service).find((r) => r.path === REST_TOOLS.find((x) => x.name === c.tool)!.paths.alpha)!.query.entries.limit;
      const rows = REST_TOOLS.find((x) => x.name === c.tool)!.pageRows ?? TOOL_PAGE_ROWS;
      let url = paged && c.args.limit === undefined ? `${c.rest}${c.rest.includes('?') ? '&' : '?'}limit=${rows}` : c.rest;
      // a history tool called without `from` asks for TOOL_HISTORY_BUCKETS buckets
      const history = REST_TOOLS.find((x) => x.name === c.tool)!.shape === 'history';
      if (history && c.args.from === undefined) {
        const from = defaultHistoryFrom(Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, String(v)])), NOW);
        url += `${url.includes('?') ? '&' : '?'}from=${from}`;
      }
      const rest = await t.get(url, 'premium');
      expect(rest.status, c.rest).toBe(200);
      const body = (await rest.json()) as Record<string, unknown>;
      expect(result.isError, c.tool).toBeFalsy();
      expect(result.structuredContent, c.tool).toEqual(body);
      const [summary, preview] = result.content as { type: string; text: string }[];
      expect(summary!.type).toBe('text');
      expect(summary!.text).not.toContain('\n');
      // the text previews the data; it is not the JSON again
      expect(preview!.text).not.toContain(JSON.stringify(body).slice(0, 40));
      expect(preview!.text.length).toBeLessThan(3000);
      if (Array.isArray(body.data) && body.data.length === 0) continue;
      expect(body.data, `${c.tool} should have data in the fixture`).toBeTruthy();
    }
  });

  it('answers for alpha when a twin tool is called without `protocol`', async () => {
    const client = await connect('premium');
    for (const [tool, rest] of [
      ['list_markets', '/v1/alpha/markets'],
      ['volume_history', '/v1/alpha/volume/history?interval=1d&from=2026-05-25'],
    ] as const) {
      const args = tool === 'volume_history' ? { interval: '1d', from: '2026-05-25' } : {};
      const result = await call(client, tool, args);
      expect(result.isError, tool).toBeFalsy();
      expect(result.structuredContent, tool).toEqual(await (await t.get(rest, 'premium')).json());
      expect(result.structuredContent, tool).not.toEqual(await (await t.get(rest.replace('/alpha/', '/beta/'), 'premium')).json());
    }
  });

  it('says a truncated page and how to get the next one', async () => {
    const client = await connect('internal');
    const accounts = await call(client, 'search_accounts', { protocol: 'alpha', limit: 1 });
    const total = (accounts.structuredContent as { pagination: { total: number } }).pagination.total;
    expect(total).toBeGreaterThan(1);
    expect((accounts.content[0] as { text: string }).text).toContain(`accounts 1-1 of ${total}. Page truncated: call again with offset=1`);
    const liqs = await call(client, 'search_liquidations', { protocol: 'alpha', limit: 1 });
    const cursor = (liqs.structuredContent as { next_cursor: string }).next_cursor;
    expect(cursor).toEqual(expect.any(String));
    expect((liqs.content[0] as { text: string }).text).toContain(`cursor="${cursor}"`);
    const rest = (await (await t.get('/v1/alpha/liquidations/search?limit=1', 'internal')).json()) as { next_cursor: string };
    const next = await call(client, 'search_liquidations', { protocol: 'alpha', cursor: rest.next_cursor, limit: 1 });
    expect(next.structuredContent).toEqual(await (await t.get(`/v1/alpha/liquidations/search?limit=1&cursor=${rest.next_cursor}`, 'internal')).json());
    expect((next.content[0] as { text: string }).text).toContain('Last page.');
  });
});

describe('describe_service', () => {
  it("tells protocols, markets, coverage, freshness and the caller's plan", async () => {
    const client = await connect('pro');
    const result = await call(client, 'describe_service');
    expect(result.isError).toBeFalsy();
    const data = (result.structuredContent as { data: Record<string, any> }).data;
    const alpha = data.protocols.find((p: { id: string }) => p.id === 'alpha');
    const markets = (await (await t.get('/v1/alpha/markets', 'internal')).json()) as { data: unknown[] };
    expect(alpha.markets).toEqual(markets.data);
    const fills = MCP_FIXTURE().flatMap((b) => b.fills);
    const alphaFills = fills.filter((f) => f.protocol === 'alpha');
    expect(alpha.coverage).toMatchObject({
      fills: alphaFills.length,
      first_fill_at: new Date(Math.min(...alphaFills.map((f) => f.time))).toISOString(),
      last_fill_at: new Date(Math.max(...alphaFills.map((f) => f.time))).toISOString(),
      first_seq: expect.any(Number),
      last_seq: expect.any(Number),
      positions_with_snapshot: 1,
    });
    expect(alpha.coverage).toMatchObject({
      market_snapshots_from: new Date(NOW - 60 * DAY).toISOString(),
      last_market_snapshot_at: new Date(NOW - 600_000).toISOString(),
      last_position_snapshot_at: new Date(NOW - 300_000).toISOString(),
    });
    const beta = data.protocols.find((p: { id: string }) => p.id === 'beta');
    expect(beta.markets).toEqual([{ market: 'SOL-PERP', market_variant: null }]);
    expect(beta.coverage).toMatchObject({ fills: 0, first_fill_at: null, last_seq: null, last_market_snapshot_at: new Date(NOW - 300_000).toISOString() });
    expect(data.freshness.last_seq).toBe(fills.length);
    expect(data.freshness.last_append_age_seconds).toBeGreaterThanOrEqual(0);
    expect(data.plan).toMatchObject({
      name: 'pro',
      requests_per_minute: 1200,
      credits_per_month: 2_000_000,
      history_days: 90,
      funding_history_days: 30,
      liquidation_lookback_days: 90,
    });
    expect(data.plan.tool_costs).toMatchObject({ describe_service: 0, search_accounts: 5, get_account: 1 });
    expect((result.content[0] as { text: string }).text).toMatch(/^Service \(data source none\): alpha: \d+ markets, \d+ fills/);
    expect(data.data_source).toMatchObject({ source: 'none', simulated: false });
  });
});
