/**
 * `/v1/mcp` for agents, through the MCP SDK's Client over a real port, on a simulated journal (8
 * days): every data tool with protocol=beta answers, each default answer (no paging or window
 * arguments) stays under 20,000 characters, the text is a summary and a preview rather than the
 * JSON again and says how to get the next page.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serve } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_TOOLS } from '../../server/mcp/catalog.ts';
import { TOOL_PAGE_ROWS } from '../../server/mcp/tools.ts';
import { Simulator } from '../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';

const START = Date.UTC(2026, 3, 20);
const NOW = Date.UTC(2026, 3, 28, 7, 13);
let t: TestApp;
let server: ReturnType<typeof serve>;
let client: Client;
let address = '';
let positionId = 0;

beforeAll(async () => {
  const sim = new Simulator({ seed: 9, start: START, snapshotsFrom: Date.UTC(2026, 3, 22) });
  t = await openTestApp({ now: NOW, batches: sim.advance(NOW) });
  t.service.source.setSource('simulated'); // as `start --source simulate` does
  server = serve(t.app, { port: 0, hostname: '127.0.0.1', silent: true });
  await server.ready();
  client = new Client({ name: 'mcp-beta-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/v1/mcp', server.url!), {
      requestInit: { headers: { 'x-api-key': t.key('internal') } },
    }),
  );
  // the beta wallet with the most lifecycles, and its latest one
  const [row] = await t.service.db.querySql("SELECT address, max(position_id) AS id, count(*) AS n FROM lifecycles WHERE protocol = 'beta' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 1");
  address = row!.address as string;
  positionId = row!.id as number;
}, 120_000);
afterAll(async () => {
  await client?.close();
  await server?.close(true);
  await t?.close();
});

const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const texts = (r: CallToolResult) => (r.content as { text: string }[]).map((c) => c.text);

describe('provenance', () => {
  it('names the simulated source in describe_service, /health, the OpenAPI description and a header on every answer', async () => {
    const described = await call('describe_service');
    expect((described.structuredContent as { data: { data_source: unknown } }).data.data_source).toMatchObject({ source: 'simulated', simulated: true });
    expect(texts(described)[0]).toMatch(/^Service \(SIMULATED data/);
    expect(texts(described)).toHaveLength(1); // a summary, not the JSON again
    const health = await t.app.request('/health');
    expect(((await health.json()) as { data_source: string }).data_source).toBe('simulated');
    expect(health.headers.get('x-data-source')).toBe('simulated');
    const doc = (await (await t.app.request('/v1/openapi.json')).json()) as { info: { description: string } };
    expect(doc.info.description).toMatch(/Data source of this deployment: SIMULATED/);
    for (const [path, status] of [
      ['/v1/beta/markets', 200],
      ['/v1/beta/fills?side=up', 400],
      ['/v1/nope', 404],
    ] as const) {
      const res = await t.get(path, 'premium');
      expect(res.status, path).toBe(status);
      expect(res.headers.get('x-data-source'), path).toBe('simulated');
    }
    expect((await t.get('/v1/beta/markets', null)).headers.get('x-data-source')).toBe('simulated');
    expect((await t.get('/v1/beta/volume/history', 'premium', { headers: { accept: 'text/csv' } })).headers.get('x-data-source')).toBe('simulated');
  });
});

describe('MCP tools on beta', () => {
  it('every tool with a beta twin answers protocol=beta with defaults, under 20,000 characters', async () => {
    const twins = REST_TOOLS.filter((tool) => tool.paths.beta !== undefined);
    expect(twins.length).toBeGreaterThanOrEqual(19);
    const sizes: Record<string, number> = {};
    for (const tool of twins) {
      const args: Record<string, unknown> = { protocol: 'beta' };
      if (tool.paths.alpha.includes(':address')) args.address = address;
      if (tool.paths.alpha.includes(':id')) args.id = positionId;
      if (tool.name === 'funding_rate_history' || tool.name === 'price_history') args.market = 'SOL-PERP';
      const result = await call(tool.name, args);
      expect(result.isError, `${tool.name}: ${texts(result)[0]}`).toBeFalsy();
      const size = JSON.stringify(result).length;
      sizes[tool.name] = size;
      expect(size, tool.name).toBeLessThan(20_000);
      const body = result.structuredContent as Record<string, unknown>;
      // the text is not the JSON again
      for (const text of texts(result)) expect(text.includes(JSON.stringify(body.data).slice(0, 60)), tool.name).toBe(false);
      if (tool.name !== 'list_markets' && tool.name !== 'market_stats') {
        const rows = Array.isArray(body.data) ? body.data : [body.data];
        for (const row of rows as Record<string, unknown>[]) if ('protocol' in row) expect(row.protocol, tool.name).toBe('beta');
      }
    }
    // the accounts search with no argument: a page for a model, not every account
    expect(sizes.search_accounts).toBeLessThan(20_000);
  });

  it('a default page is sized for a model and the summary says how to get the next one', async () => {
    const open = await call('search_open_positions', { protocol: 'beta' });
    expect((open.structuredContent as { data: unknown[] }).data.length).toBe(TOOL_PAGE_ROWS);
    const accounts = await call('search_accounts', { protocol: 'beta' });
    const body = accounts.structuredContent as { data: unknown[]; pagination: { total: number; limit: number } };
    const rows = REST_TOOLS.find((x) => x.name === 'search_accounts')!.pageRows!;
    expect(body.data.length).toBe(rows);
    expect(body.pagination.limit).toBe(rows);
    expect(body.pagination.total).toBeGreaterThan(rows);
    expect(texts(accounts)[0]).toContain(`Page truncated: call again with offset=${rows}`);
    const fills = await call('search_fills', { protocol: 'beta' });
    const cursor = (fills.structuredContent as { next_cursor: string }).next_cursor;
    expect(texts(fills)[0]).toContain(`call again with cursor="${cursor}"`);
    const next = await call('search_fills', { protocol: 'beta', cursor });
    expect(next.isError).toBeFalsy();
    const history = await call('volume_history', { protocol: 'beta' });
    expect(texts(history)[0]).toMatch(/call again with from\/to/);
    expect((history.structuredContent as { data: unknown[] }).data.length).toBe(48);
  });

  it('funding_rate_history takes market on beta and market_variant on alpha', async () => {
    const beta = await call('funding_rate_history', { protocol: 'beta', market: 'SOL-PERP' });
    expect(beta.isError).toBeFalsy();
    const missing = await call('funding_rate_history', { protocol: 'beta' });
    expect(missing.isError).toBe(true);
    expect((missing.structuredContent as { error: { param: string } }).error.param).toBe('market');
    const alpha = await call('funding_rate_history', { protocol: 'alpha' });
    expect((alpha.structuredContent as { error: { param: string } }).error.param).toBe('market_variant');
  });
});
