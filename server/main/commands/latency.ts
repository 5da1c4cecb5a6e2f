import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { numberFlag } from './flags.ts';

/** The p-th percentile (0-100) of sorted numbers. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function getJson(url: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Requests per endpoint, with parameters a real client would send. `:address`/`:id` filled in. */
const REQUESTS: [name: string, path: string][] = [
  ['1 protocols', '/v1/protocols'],
  ['2 protocols/stats', '/v1/protocols/stats'],
  ['3 alpha/markets', '/v1/alpha/markets'],
  ['4 alpha/markets/stats', '/v1/alpha/markets/stats'],
  ['5 liquidations/search', '/v1/alpha/liquidations/search?market=SOL-PERP&limit=100'],
  ['6 liquidations/history', '/v1/alpha/liquidations/history?interval=1d'],
  ['7 open-interest', '/v1/alpha/open-interest'],
  ['8 open-interest/history', '/v1/alpha/open-interest/history?market=SOL-PERP&interval=1h'],
  ['9 volume/history', '/v1/alpha/volume/history?interval=1h'],
  ['10 funding-rates', '/v1/alpha/funding-rates'],
  ['11 funding-rates/history', '/v1/alpha/funding-rates/history?market_variant=SOL%2FUSD%5BWSOL-USDC%5D&interval=1h'],
  ['12 accounts/stats', '/v1/alpha/accounts/stats'],
  ['13 accounts/search', '/v1/alpha/accounts/search?sort_by=volume&limit=50'],
  ['14 accounts/:address', '/v1/alpha/accounts/:address'],
  ['15 accounts/:address/history', '/v1/alpha/accounts/:address/history?limit=50'],
  ['16 open-positions/search', '/v1/alpha/open-positions/search?sort_by=liq_proximity&order=asc&limit=50'],
  ['17 open-positions/stats', '/v1/alpha/open-positions/stats?market=SOL-PERP'],
  ['18 positions/:address/:id', '/v1/alpha/positions/:address/:id'],
  ['19 positions/:address/:id/lifecycle', '/v1/alpha/positions/:address/:id/lifecycle'],
  ['20 beta/markets', '/v1/beta/markets'],
  ['21 beta/markets/stats', '/v1/beta/markets/stats'],
];

/**
 * `latency`: p50 / p99 of every REST endpoint of a running server, one client, sequential
 * requests after a warm-up. The account and position are the most active alpha account's.
 */
export const latencyCommand = defineCommand({
  meta: { name: 'latency', description: 'Per-endpoint latency (p50, p99) of a running server, one client' },
  args: {
    url: { type: 'string', default: 'http://127.0.0.1:8080', description: 'server base URL' },
    key: { type: 'string', description: 'API key (default: the premium demo key of --data)' },
    data: { type: 'string', description: 'data directory holding demo-keys.json (default $PERPS_DATA_DIR or ./data)' },
    requests: { type: 'string', default: '100', description: 'measured requests per endpoint' },
  },
  async run({ args }) {
    const n = numberFlag('requests', args.requests, { integer: true, min: 1 });
    const key = args.key ?? (JSON.parse(readFileSync(join(args.data ?? configFromEnv().dataDir, 'demo-keys.json'), 'utf8')) as { plan: string; key: string }[]).find((k) => k.plan === 'premium')?.key;
    if (!key) throw new Error('no key: pass --key or start the server once to create demo keys');
    const top = await getJson(`${args.url}/v1/alpha/accounts/search?sort_by=positions&limit=1`, key);
    const address = (top.body.data as { address: string }[] | undefined)?.[0]?.address ?? 'unknown';
    const hist = await getJson(`${args.url}/v1/alpha/accounts/${address}/history?limit=1`, key);
    const id = (hist.body.data as { position_id: number }[] | undefined)?.[0]?.position_id ?? 0;
    process.stdout.write(`endpoint\tstatus\tp50 ms\tp99 ms\n`);
    for (const [name, template] of REQUESTS) {
      const url = args.url + template.replace(':address', address).replace(':id', String(id));
      let status = 0;
      for (let i = 0; i < 5; i++) status = (await fetch(url, { headers: { 'x-api-key': key } }).then((r) => r.arrayBuffer().then(() => r))).status;
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        await res.arrayBuffer();
        times.push(performance.now() - t);
        status = res.status;
      }
      times.sort((a, b) => a - b);
      process.stdout.write(`${name}\t${status}\t${percentile(times, 50).toFixed(1)}\t${percentile(times, 99).toFixed(1)}\n`);
    }
  },
});
