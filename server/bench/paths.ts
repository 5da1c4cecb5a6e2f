/**
 * `npm run bench:paths -- [--data DIR] [--n 300] [--no-cache] PATH...` (issue 7): what chosen
 * request paths cost the server over HTTP, one at a time, on the bench journal. Starts the API
 * server (`start --source none`, like `npm run bench`), waits until its read side is warm, then per
 * path sends 5 unmeasured requests and `n` measured ones over one keep-alive connection. Prints
 * per path: bytes, p50 / p90 / p99 / max ms, and the server's CPU time and minor page faults per
 * request (/proc), which the client's own time does not blur. `--no-cache` computes every answer.
 */
import { parseArgs } from 'node:util';
import { KeyStore } from '../keys/store.ts';
import { timedGet } from './measure.ts';
import { freePort, percentile, spawnServer, untilQuiet, untilWarm } from './server-process.ts';

const { values: args, positionals: paths } = parseArgs({
  allowPositionals: true,
  options: {
    data: { type: 'string' },
    n: { type: 'string', default: '300' },
    'no-cache': { type: 'boolean', default: false },
  },
});
const dataDir = args.data ?? process.env.BENCH_DATA ?? '/tmp/perps-bench';
const n = Number(args.n);
if (paths.length === 0 || !(n > 0)) throw new Error('usage: npm run bench:paths -- [--data DIR] [--n 300] [--no-cache] PATH...');

const store = KeyStore.open(dataDir);
const { key, record } = store.create({ plan: 'internal', label: 'bench:paths' });
const port = await freePort();
const api = await spawnServer({
  name: 'API server', script: 'server/cli.ts', port, readyPath: '/v1/openapi.json',
  args: ['start', '--data', dataDir, '--port', String(port), '--source', 'none'],
  env: args['no-cache'] ? { PERPS_CACHE: '0' } : {},
});
try {
  await untilWarm(api);
  await untilQuiet(api);
  console.log(`response cache ${args['no-cache'] ? 'off' : 'on'}; ${n} requests a path`);
  console.log('   bytes   p50 ms   p90 ms   p99 ms   max ms  server CPU ms/req  faults/req  path');
  for (const path of paths) {
    for (let i = 0; i < 5; i++) await timedGet(api.url + path, key);
    const ms: number[] = [];
    let bytes = 0;
    const cpu0 = api.cpuSeconds();
    const faults0 = api.minorFaults();
    for (let i = 0; i < n; i++) {
      const r = await timedGet(api.url + path, key);
      if (r.status !== 200) throw new Error(`${path}: status ${r.status}`);
      ms.push(r.ms);
      bytes = r.bytes;
    }
    const cpu = ((api.cpuSeconds() - cpu0) * 1000) / n;
    const faults = (api.minorFaults() - faults0) / n;
    ms.sort((a, b) => a - b);
    const f = (x: number, w = 8): string => x.toFixed(2).padStart(w);
    console.log(`${String(bytes).padStart(8)} ${f(percentile(ms, 50))} ${f(percentile(ms, 90))} ${f(percentile(ms, 99))} ${f(ms[ms.length - 1]!)} ` +
      `${f(cpu, 18)} ${faults.toFixed(0).padStart(11)}  ${path}`);
  }
} finally {
  await api.stop();
  store.revoke(record.id);
}
