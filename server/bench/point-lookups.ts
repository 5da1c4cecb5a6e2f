/**
 * `npm run bench:point-lookups -- --data DIR`: where should the closed lifecycles live? Serves
 * `GET /v1/alpha/accounts/{address}/history`, `GET /v1/alpha/positions/{address}/{id}` and
 * `GET /v1/alpha/positions/{address}/{id}/lifecycle` three ways, in one process over one open state:
 * - `segments`: the lifecycle store's segment files (server/read/lifecycles/lifecycle-store.ts), as served;
 * - `duckdb`: no store, the routes' SQL fallbacks alone;
 * - `sqlite`: the same closed lifecycles in SQLite (server/bench/sqlite-lifecycles.ts).
 * Everything else is shared (the open-position set, the accounts, the history read index), and each
 * tier gets its own h3 app of the real routes (no response cache: every request computes), called in
 * process (`app.request`). The bench's requests for these endpoints (server/bench/workloads.ts) run
 * interleaved, each request on the three tiers back to back in rotating order, for several rounds;
 * per tier: wall p50/p99/max and the process's CPU per request (every thread, DuckDB's included).
 * The answers of the three are compared on the way: a tier that answers otherwise is reported.
 * Run it on a copy of a bench journal that no server has open.
 */
import { statSync, readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { H3 } from 'h3';
import { mountRoute } from '../http/mount-route.ts';
import { AccountsIndex } from '../read/accounts/accounts-index.ts';
import { handleError } from '../http/errors.ts';
import { HistoryIndex } from '../read/lifecycles/history-index.ts';
import { LifecycleStore } from '../read/lifecycles/lifecycle-store.ts';
import { OpenPositionsIndex } from '../read/open-positions/open-positions-index.ts';
import { positionRoutes } from '../http/routes/positions.ts';
import { KeyStore } from '../keys/store.ts';
import { log } from '../lib/log.ts';
import { openService } from '../service.ts';
import { percentile } from './server-process.ts';
import { SqliteLifecycles, buildSqliteLifecycles } from './sqlite-lifecycles.ts';
import { discover, endpointWorkloads } from './workloads.ts';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    rounds: { type: 'string', default: '4' },
    n: { type: 'string', default: '150' },
    sqlite: { type: 'string', default: join(tmpdir(), 'point-lookups.sqlite') },
  },
});
const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
const say = (s: string): void => void process.stdout.write(`${s}\n`);
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const bytesIn = (dir: string): number => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
const mib = (bytes: number): string => (bytes / 1_048_576).toFixed(0);

const data = await discover(dataDir);
const service = await openService({ dataDir });
const keys = KeyStore.open(dataDir);
const { key, record } = keys.create({ plan: 'internal', label: 'bench:point-lookups' });
try {
  const history = new HistoryIndex(service);
  const store = LifecycleStore.of(service);
  const t0 = performance.now();
  void history.open();
  await store.follow(history);
  say(`lifecycle store ready in ${((performance.now() - t0) / 1000).toFixed(0)} s, mark ${store.view().mark}`);
  // the serving memory limit, as a server runs (server/main/commands/start.ts)
  await service.db.setMemoryLimit(process.env.PERPS_DUCKDB_SERVE_MEMORY ?? '640MB');
  const accounts = new AccountsIndex(service);
  const openPositions = new OpenPositionsIndex(service);
  accounts.open();
  openPositions.open();
  await accounts.loaded();
  while (!openPositions.warm() || history.behind()) await new Promise((r) => setTimeout(r, 200));
  const storeDir = join(dataDir, 'read-index', 'lifecycles');
  const t1 = performance.now();
  const built = buildSqliteLifecycles(storeDir, args.sqlite);
  say(
    `SQLite written in ${((performance.now() - t1) / 1000).toFixed(0)} s: ${built.lifecycles} lifecycles, ${built.accountRows} account rows, ` +
      `${mib(statSync(args.sqlite).size)} MiB (segment files ${mib(bytesIn(storeDir))} MiB)`,
  );
  const sqlite = new SqliteLifecycles(service, args.sqlite, store);
  const tiers = { segments: store, duckdb: null, sqlite } as const;
  const apps = Object.entries(tiers).map(([name, lifecycles]) => {
    const app = new H3({ silent: true, onError: handleError });
    for (const route of positionRoutes(service, { history, accounts, openPositions, lifecycles })) mountRoute(app, route, keys);
    return { name, app };
  });
  const get = async (app: H3, path: string): Promise<string> => {
    const res = await app.request(path, { headers: { 'x-api-key': key } });
    return `${res.status} ${await res.text()}`;
  };
  const workloads = endpointWorkloads(data, Date.now(), Number(args.n)).filter((w) => /^(15|18|19) /.test(w.name));
  // warm-up, and the answers compared: every tier must answer as the segment store does
  let unequal = 0;
  for (const w of workloads) {
    for (const path of w.paths) {
      const [first, ...rest] = await Promise.all(apps.map(({ app }) => get(app, path)));
      for (const [i, other] of rest.entries()) {
        if (other !== first) {
          unequal += 1;
          if (unequal <= 5) say(`DIFFERENT ${apps[i + 1]!.name} vs segments: ${path}`);
        }
      }
    }
  }
  say(`answers compared: ${unequal} of ${workloads.reduce((n, w) => n + w.paths.length, 0) * 2} differ from the segment store's`);
  say(`load average before ${load()}`);
  const samples = new Map<string, { ms: number[]; cpuUs: number }>();
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const w of workloads) {
      for (const [p, path] of w.paths.entries()) {
        for (let k = 0; k < apps.length; k++) {
          const { name, app } = apps[(p + round + k) % apps.length]!;
          const id = `${w.name}\t${name}`;
          const s = samples.get(id) ?? { ms: [], cpuUs: 0 };
          samples.set(id, s);
          const cpu0 = process.cpuUsage();
          const start = performance.now();
          await get(app, path);
          s.ms.push(performance.now() - start);
          const cpu = process.cpuUsage(cpu0);
          s.cpuUs += cpu.user + cpu.system;
        }
      }
    }
    log.info(`round ${round + 1} of ${args.rounds} done; load average ${load()}`);
  }
  say(`load average after ${load()}`);
  say('| endpoint | storage | requests | p50 ms | p99 ms | max ms | CPU ms / request |');
  say('|---|---|---|---|---|---|---|');
  for (const [id, s] of samples) {
    const [endpoint, tier] = id.split('\t');
    const ms = s.ms.sort((a, b) => a - b);
    say(
      `| ${endpoint} | ${tier} | ${ms.length} | ${percentile(ms, 50).toFixed(2)} | ${percentile(ms, 99).toFixed(2)} | ` +
        `${ms[ms.length - 1]!.toFixed(1)} | ${(s.cpuUs / 1000 / ms.length).toFixed(2)} |`,
    );
  }
  await sqlite.close();
} finally {
  keys.revoke(record.id);
  await service.close();
}
