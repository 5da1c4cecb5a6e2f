/**
 * MCP overhead over REST on the same app and port (opt-in: MCP_BENCH=1 npx vitest run test/mcp/mcp-bench.test.ts).
 * Alternates one REST GET and one SDK tool call, 300 times per tool, and prints p50/p99 of each;
 * fails when an MCP call's p50 exceeds its REST twin's by more than 25 ms.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serve } from 'h3';
import { expect, it } from 'vitest';
import { openTestApp } from '../helpers/app.ts';
import { A, MCP_FIXTURE, NOW } from '../helpers/mcp-fixture.ts';

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

it.skipIf(!process.env.MCP_BENCH)('MCP tool calls cost a few ms more than REST', async () => {
  const t = await openTestApp({ now: NOW, batches: MCP_FIXTURE() });
  const server = serve(t.app, { port: 0, hostname: '127.0.0.1', silent: true });
  await server.ready();
  const key = t.key('internal');
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/v1/mcp', server.url!), { requestInit: { headers: { 'x-api-key': key } } }));
  const cases = [
    ['list_protocols', {}, '/v1/protocols'],
    ['get_account', { address: A }, `/v1/alpha/accounts/${A}`],
    ['search_open_positions', {}, '/v1/alpha/open-positions/search'],
  ] as const;
  for (const [tool, args, path] of cases) {
    const rest: number[] = [];
    const mcp: number[] = [];
    for (let i = 0; i < 300; i++) {
      let t0 = performance.now();
      await (await fetch(new URL(path, server.url!), { headers: { 'x-api-key': key } })).json();
      rest.push(performance.now() - t0);
      t0 = performance.now();
      await client.callTool({ name: tool, arguments: args });
      mcp.push(performance.now() - t0);
    }
    const f = (x: number) => x.toFixed(1);
    console.log(`${tool}: REST p50 ${f(pct(rest, 0.5))} p99 ${f(pct(rest, 0.99))} ms | MCP p50 ${f(pct(mcp, 0.5))} p99 ${f(pct(mcp, 0.99))} ms`);
    expect(pct(mcp, 0.5) - pct(rest, 0.5)).toBeLessThan(25);
  }
  await client.close();
  await server.close(true);
  await t.close();
});
