/**
 * `npm run load`: a trial key hammered at 10x its rate limit gets 429s while a premium key
 * in the same run keeps its normal latency.
 *
 * Without `--url` it builds a small simulated journal in a temp dir (or uses `--data`), creates the
 * two keys with the KeyStore, and starts the server as a child process (`--source none`). With
 * `--url` it needs `--data` (the server's data dir, for the keys) and creates the keys there (the
 * running server's KeyStore picks them up within a second).
 *
 * Phases: (1) the premium key alone at its normal rate (baseline latency), (2) both at once: the
 * trial key (60/min) at 600/min and the premium key at the same normal rate. Prints p50/p99 and
 * status counts per key and phase, writes bench-results-load.json.
 *
 * Usage: npm run load -- [--url URL --data DIR] [--seconds 30] [--rate 10] [--out FILE]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { KeyStore } from '../keys/store.ts';
import { getPlan } from '../keys/plans.ts';
import { openService } from '../service.ts';
import { backfillSimulator } from '../sources/simulate/source.ts';
import { ALPHA_LAUNCH_MS } from '../sources/simulate/markets.ts';
import { startApiServer, type ServerChild } from './server-process.ts';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    data: { type: 'string' },
    seconds: { type: 'string', default: '30' },
    rate: { type: 'string', default: '10', description: 'premium requests per second' },
    out: { type: 'string', default: 'bench-results-load.json' },
  },
});

/** Current-state endpoints (1 credit): the point is the limiter, not the queries. */
const PATHS = ['/v1/protocols', '/v1/alpha/markets', '/v1/alpha/markets/stats', '/v1/alpha/open-interest', '/v1/alpha/funding-rates', '/v1/alpha/open-positions/stats', '/v1/beta/markets/stats'];

interface KeyFigures {
  plan: string;
  target_rps: number;
  requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  statuses: Record<string, number>;
}

/** Runs one autocannon client for `key` at `rps` requests/s for `seconds`. */
async function hammer(url: string, key: string, plan: string, rps: number, seconds: number): Promise<KeyFigures> {
  const result = await autocannon({
    url,
    connections: 1,
    overallRate: rps,
    duration: seconds,
    headers: { 'x-api-key': key },
    requests: PATHS.map((path) => ({ method: 'GET', path })),
  });
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stat?.count ?? 0;
  if (result.errors > 0) statuses.errors = result.errors;
  return {
    plan,
    target_rps: rps,
    requests: result.requests.total,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    statuses,
  };
}

/** A small journal (a month of simulated history at scale 1) for a self-contained run. */
async function smallDataDir(): Promise<{ dir: string; cleanup: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'perps-load-'));
  const service = await openService({ dataDir: dir });
  try {
    await backfillSimulator(service, { seed: 42, scale: 1 }, ALPHA_LAUNCH_MS + 30 * 86_400_000);
  } finally {
    await service.close();
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function row(phase: string, f: KeyFigures): string {
  const st = Object.entries(f.statuses)
    .map(([k, n]) => `${k}:${n}`)
    .join(' ');
  return (
    `${phase.padEnd(10)} ${f.plan.padEnd(8)} ${String(f.target_rps * 60).padStart(7)}/min ${String(f.requests).padStart(6)} ` +
    `${f.p50_ms.toFixed(1).padStart(7)} ${f.p99_ms.toFixed(1).padStart(7)} ${f.max_ms.toFixed(1).padStart(7)}  ${st}`
  );
}

async function main(): Promise<void> {
  if (args.url && !args.data) throw new Error("--url needs --data (the server's data dir, to create the keys in)");
  const seconds = Number(args.seconds);
  const normalRps = Number(args.rate);
  const trialPerMinute = getPlan('trial').requestsPerMinute as number;
  const hammerRps = (10 * trialPerMinute) / 60;

  const owned = args.data ? undefined : await smallDataDir();
  const dataDir = args.data ?? owned!.dir;
  const store = KeyStore.open(dataDir);
  const trial = store.create({ plan: 'trial', label: 'load: hammered trial' });
  const premium = store.create({ plan: 'premium', label: 'load: normal premium' });
  let server: ServerChild | undefined;
  try {
    if (!args.url) server = await startApiServer(dataDir);
    const url = args.url ?? server!.url;
    await new Promise((r) => setTimeout(r, 1_500)); // a running server's KeyStore re-reads within 1 s
    // Warm-up (compiles the query plans) with the premium key, not measured.
    await hammer(url, premium.key, 'premium', 20, 3);

    const alone = await hammer(url, premium.key, 'premium', normalRps, seconds);
    const [flood, normal] = await Promise.all([hammer(url, trial.key, 'trial', hammerRps, seconds), hammer(url, premium.key, 'premium', normalRps, seconds)]);

    process.stdout.write(`\nphase      key       rate        reqs  p50 ms  p99 ms  max ms  statuses\n`);
    process.stdout.write(`${row('alone', alone)}\n${row('together', flood)}\n${row('together', normal)}\n`);
    const ok = (flood.statuses['429'] ?? 0) > 0 && Object.keys(normal.statuses).every((s) => s === '200');
    process.stdout.write(
      `\ntrial at 10x its limit got ${flood.statuses['429'] ?? 0} 429s and ${flood.statuses['200'] ?? 0} 200s; ` +
        `premium p99 ${alone.p99_ms} ms alone, ${normal.p99_ms} ms beside the flood: ${ok ? 'OK' : 'UNEXPECTED'}\n`,
    );
    const report = {
      at: new Date().toISOString(),
      url: args.url ?? 'local child server',
      seconds,
      trial_limit_per_minute: trialPerMinute,
      alone,
      together: { trial: flood, premium: normal },
      ok,
    };
    writeFileSync(args.out as string, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`written ${args.out}\n`);
    if (!ok) process.exitCode = 1;
  } finally {
    await server?.stop();
    store.revoke(trial.record.id);
    store.revoke(premium.record.id);
    owned?.cleanup();
  }
}

await main();
