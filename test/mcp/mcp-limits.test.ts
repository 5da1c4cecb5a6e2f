/**
 * `/v1/mcp` gates and limits over a real port: method, key and plan checks before the MCP exchange,
 * tool calls metered like their REST twins (credits, refunds, rate limit, credits exhausted), bad
 * arguments as tool errors naming the argument, and plan clamps said in the summary.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serve } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPlan, type PlanName } from '../../server/keys/plans.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { A, MCP_FIXTURE, NOW, WSOL } from '../helpers/mcp-fixture.ts';

let t: TestApp;
let server: ReturnType<typeof serve>;
let endpoint: URL;
const clients: Client[] = [];

async function connectWith(rawKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-limits-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'x-api-key': rawKey } } }));
  clients.push(client);
  return client;
}

/** A fresh key of `plan` (own account, own rate-limit window) and its record. */
function freshKey(plan: PlanName) {
  const { key, record } = t.keys.create({ plan, label: `mcp ${plan}` });
  return { key, record, credits: () => t.limits.credits.remaining(record.account, getPlan(plan)) };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const summaryOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;
const errorOf = (r: CallToolResult) => (r.structuredContent as { error: { code: string; message: string; param?: string } }).error;

const post = (headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
  fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  t = await openTestApp({ now: NOW, batches: MCP_FIXTURE() });
  server = serve(t.app, { port: 0, hostname: '127.0.0.1', silent: true });
  await server.ready();
  endpoint = new URL('/v1/mcp', server.url!);
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.close(true);
  await t?.close();
});

describe('HTTP gates before the MCP exchange', () => {
  it('refuses trial and starter keys with 403 plan_required, and the SDK client fails to connect', async () => {
    for (const plan of ['trial', 'starter'] as const) {
      const res = await post({ 'x-api-key': t.key(plan) });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: { code: 'plan_required', message: `MCP needs the pro or premium plan; this key's plan is ${plan}.` },
      });
      await expect(connectWith(t.key(plan))).rejects.toThrow(/plan_required/);
    }
    for (const plan of ['pro', 'premium', 'internal'] as const) expect((await post({ 'x-api-key': t.key(plan) })).status).toBe(200);
  });

  it('a successful exchange carries the request id, the version and its limit headers', async () => {
    const res = await post({ 'x-api-key': t.key('pro'), 'x-request-id': 'mcp-trace-0001' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'describe_service', arguments: {} } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('mcp-trace-0001');
    expect(res.headers.get('x-api-version')).toBe('1.0.0-rc.1');
    expect(res.headers.get('ratelimit-limit')).toBe('1200');
    expect(Number(res.headers.get('x-credits-remaining'))).toBeGreaterThan(0);
    await res.text();
  });

  it("the transport's own error answers (bad JSON, wrong Accept) carry the request id and version too", async () => {
    const badJson = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-api-key': t.key('pro'), 'x-request-id': 'mcp-trace-0002' },
      body: '{bad',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { code: number } }).error.code).toBe(-32700);
    const wrongAccept = await post({ 'x-api-key': t.key('pro'), 'x-request-id': 'mcp-trace-0003', accept: 'text/html' });
    expect(wrongAccept.status).toBe(406);
    await wrongAccept.text();
    for (const [res, id] of [
      [badJson, 'mcp-trace-0002'],
      [wrongAccept, 'mcp-trace-0003'],
    ] as const) {
      expect(res.headers.get('x-request-id')).toBe(id);
      expect(res.headers.get('x-api-version')).toBe('1.0.0-rc.1');
    }
  });

  it('answers 401 without a key (a key in the query string is not read)', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const inQuery = await fetch(`${endpoint.href}?api_key=${t.key('pro')}`, { method: 'POST', body: '{}' });
    expect(inQuery.status).toBe(401);
  });

  it('answers GET and DELETE with 405 and Allow: POST (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await fetch(endpoint, { method, headers: { 'x-api-key': t.key('pro') } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    }
  });
});

describe('metering like REST', () => {
  it("charges each tool call its REST twin's credits, refunds errors, and describe_service costs none", async () => {
    const k = freshKey('pro');
    const client = await connectWith(k.key);
    await client.listTools();
    // initialize and tools/list read no data: neither metered nor counted
    expect(t.limits.credits.used(k.record.account)).toEqual({ requests: 0, credits: 0 });
    const start = k.credits()!;
    expect(start).toBe(2_000_000);

    await call(client, 'search_accounts', { protocol: 'alpha' });
    expect(k.credits()).toBe(start - 5);
    await t.app.request('/v1/alpha/accounts/search', { headers: { 'x-api-key': k.key } });
    expect(k.credits()).toBe(start - 10);
    await call(client, 'get_account', { protocol: 'alpha', address: A });
    expect(k.credits()).toBe(start - 11);

    expect((await call(client, 'search_accounts', { protocol: 'alpha', limit: 0 })).isError).toBe(true);
    expect((await call(client, 'get_account', { protocol: 'alpha', address: 'Zzzz1111111111111111111111111111111' })).isError).toBe(true);
    const requestsBefore = t.limits.credits.used(k.record.account).requests;
    const described = await call(client, 'describe_service');
    expect(described.isError).toBeFalsy();
    expect((described.structuredContent as { data: { plan: { credits_remaining: number } } }).data.plan.credits_remaining).toBe(start - 11);
    expect(k.credits()).toBe(start - 11);
    expect(t.limits.credits.used(k.record.account).requests).toBe(requestsBefore + 1);
    expect(described._meta).toMatchObject({ 'x-credits-remaining': String(start - 11), 'ratelimit-limit': '1200' });
  });

  it("applies the key's rate limit to tool calls (a tool error, like the REST twin's 429)", async () => {
    const k = freshKey('pro');
    const client = await connectWith(k.key);
    for (let i = 0; i < 1199; i++) t.limits.limiter.take(k.record.id, 1200);
    const last = await call(client, 'list_protocols');
    expect(last.isError).toBeFalsy();
    expect(last._meta).toMatchObject({ 'ratelimit-remaining': '0' });
    for (const name of ['list_protocols', 'describe_service']) {
      const limited = await call(client, name);
      expect(limited.isError).toBe(true);
      expect(errorOf(limited).code).toBe('rate_limited');
      expect(summaryOf(limited)).toMatch(/^Error rate_limited: Rate limit of 1200 requests per minute exceeded; retry after \d+ s\.$/);
    }
    expect((await t.app.request('/v1/protocols', { headers: { 'x-api-key': k.key } })).status).toBe(429);
  });

  it("says credits_exhausted when the month's credits are fewer than the tool's cost", async () => {
    const k = freshKey('pro');
    const client = await connectWith(k.key);
    t.limits.credits.charge(k.record.account, 2_000_000 - 3, 0);
    const search = await call(client, 'search_accounts', { protocol: 'alpha' });
    expect(search.isError).toBe(true);
    expect(errorOf(search).code).toBe('credits_exhausted');
    const one = await call(client, 'get_account', { protocol: 'alpha', address: A });
    expect(one.isError).toBeFalsy();
    expect(k.credits()).toBe(2);
  });
});

describe('tool errors', () => {
  it('names the argument at fault, never failing the transport', async () => {
    const client = await connectWith(t.key('internal'));
    const cases: [string, Record<string, unknown>, string, string | undefined][] = [
      ['search_accounts', { protocol: 'alpha', limit: 501 }, 'invalid_parameter', 'limit'],
      ['search_accounts', { protocol: 'alpha', limit: 2.5 }, 'invalid_parameter', 'limit'],
      ['search_accounts', { protocol: 'alpha', sort_by: 'size' }, 'invalid_parameter', 'sort_by'],
      ['search_accounts', { protocol: 'alpha', limt: 5 }, 'unknown_parameter', 'limt'],
      ['search_accounts', { protocol: 'alpha', limit: [1, 2] }, 'invalid_parameter', 'limit'],
      ['volume_history', { protocol: 'alpha', from: 1_780_000_000 }, 'invalid_parameter', 'from'],
      ['volume_history', { protocol: 'alpha', interval: '2h' }, 'invalid_parameter', 'interval'],
      ['funding_rate_history', { protocol: 'alpha' }, 'invalid_parameter', 'market_variant'],
      ['open_interest', { protocol: 'alpha', market_variant: 'DOGE/USD[USDC]' }, 'invalid_parameter', 'market_variant'],
      ['market_stats', { protocol: 'gamma' }, 'invalid_parameter', 'protocol'],
      ['list_markets', { protocol: 5 }, 'invalid_parameter', 'protocol'],
      ['get_position', { protocol: 'alpha', address: A }, 'invalid_parameter', 'id'],
      ['get_account', { protocol: 'alpha', address: '../../protocols' }, 'invalid_parameter', 'address'],
      ['get_account', { protocol: 'alpha', address: 'Zzzz1111111111111111111111111111111' }, 'not_found', undefined],
      ['describe_service', { verbose: true }, 'unknown_parameter', 'verbose'],
      ['no_such_tool', {}, 'not_found', undefined],
    ];
    for (const [name, args, code, param] of cases) {
      const result = await call(client, name, args);
      const label = `${name} ${JSON.stringify(args)}`;
      expect(result.isError, label).toBe(true);
      expect(errorOf(result).code, label).toBe(code);
      expect(errorOf(result).param, label).toBe(param);
      if (param !== undefined) expect(summaryOf(result), label).toContain(`(argument '${param}')`);
    }
    // the same bad value through REST gives the same error body
    const rest = await t.get('/v1/alpha/accounts/search?limit=501', 'internal');
    expect(errorOf(await call(client, 'search_accounts', { protocol: 'alpha', limit: 501 }))).toEqual(((await rest.json()) as { error: unknown }).error);
  });
});

describe('summaries', () => {
  it('says a clamped window, with the same effective window as REST', async () => {
    const pro = await connectWith(t.key('pro'));
    const yearAgo = new Date(NOW - 365 * 86_400_000).toISOString();
    const clamped = await call(pro, 'open_interest_history', { protocol: 'alpha', interval: '1d', from: yearAgo });
    const rest = (await (await t.get(`/v1/alpha/open-interest/history?interval=1d&from=${yearAgo}`, 'pro')).json()) as { from: string };
    expect(clamped.structuredContent).toEqual(rest);
    expect(rest.from).toBe(new Date(NOW - 90 * 86_400_000).toISOString());
    expect(summaryOf(clamped)).toContain(`Window clamped: from ${new Date(NOW - 365 * 86_400_000).toISOString()} was raised to ${rest.from}: the pro plan covers 90 days of this history.`);

    const funding = await call(pro, 'funding_rate_history', { protocol: 'alpha', market_variant: WSOL, from: '2026-04-01' });
    expect(summaryOf(funding)).toContain('Window clamped: from 2026-04-01T00:00:00.000Z was raised to 2026-05-03T00:00:00.000Z: the pro plan covers 30 days');

    const premium = await connectWith(t.key('premium'));
    const full = await call(premium, 'open_interest_history', { protocol: 'alpha', interval: '1d' });
    expect(summaryOf(full)).not.toContain('clamped');
    const inside = await call(pro, 'open_interest_history', { protocol: 'alpha', interval: '1d', from: '2026-05-01' });
    expect(summaryOf(inside)).toBe(
      'Open interest history: 32 buckets of 1d over [2026-05-01T00:00:00.000Z, 2026-06-02T00:00:00.000Z), oldest first.' +
        ' For another window call again with from/to (at most 10,000 buckets), or a coarser interval.',
    );
  });

  it('says when the plan hides older lifecycles or bounds the liquidation walk', async () => {
    const pro = await connectWith(t.key('pro'));
    const history = await call(pro, 'account_position_history', { protocol: 'alpha', address: A });
    expect((history.structuredContent as { pagination: { total: number } }).pagination.total).toBe(1);
    expect(summaryOf(history)).toContain('Lifecycles opened before 2026-03-04T00:00:00.000Z are omitted (the pro plan keeps 90 days).');
    const premium = await connectWith(t.key('premium'));
    const all = await call(premium, 'account_position_history', { protocol: 'alpha', address: A });
    expect((all.structuredContent as { pagination: { total: number } }).pagination.total).toBe(2);
    expect(summaryOf(all)).not.toContain('omitted');
    expect(summaryOf(await call(pro, 'search_liquidations', { protocol: 'alpha' }))).toContain('The search reaches back to 2026-03-04T00:00:00.000Z at most');
  });
});
