/**
 * `npm run bench:paths -- [--data DIR] [--n 300] [--no-cache] PATH...`: what chosen
 * request paths cost the server over HTTP, one at a time, on the bench journal. Starts the API
 * server (`start --source none`, like `npm run bench`), waits until its read side is warm, then per
 * path measures `n` requests after 5 unmeasured ones with the bench's sequential client
 * (measureSequential: one keep-alive connection). Prints per path: bytes, p50 / p99 / max ms,
 * statuses, the server's CPU time and minor page faults per request (/proc), which the client's
 * own time does not blur, and the client's own GC pauses while it measured. `--no-cache` computes
 * every answer.
 */
import { parseArgs } from 'node:util';
import { KeyStore } from '../keys/store.ts';
import { measureSequential, timedGet } from './measure.ts';
import { startApiServer, untilQuiet, untilWarm } from './server-process.ts';

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
const api = await startApiServer(dataDir, args['no-cache'] ? { PERPS_CACHE: '0' } : {});
try {
  await untilWarm(api);
  await untilQuiet(api);
  console.log(`response cache ${args['no-cache'] ? 'off' : 'on'}; ${n} requests a path`);
  console.log('   bytes   p50 ms   p99 ms   max ms  server CPU ms/req  faults/req  client GC ms  statuses  path');
  for (const path of paths) {
    for (let i = 0; i < 5; i++) await timedGet(api.url + path, key); // unmeasured, and outside the CPU window
    const cpu0 = api.cpuSeconds();
    const faults0 = api.minorFaults();
    // one round over n copies of the path; no time budget short of ~1 s a request
    const m = await measureSequential(api.url, key, Array(n).fill(path), [], 1, n * 1000);
    const cpu = ((api.cpuSeconds() - cpu0) * 1000) / n;
    const faults = (api.minorFaults() - faults0) / n;
    const f = (x: number, w = 8): string => x.toFixed(2).padStart(w);
    const statuses = Object.entries(m.statuses)
      .map(([s, k]) => `${s}:${k}`)
      .join(' ');
    console.log(
      `${String(m.mean_bytes).padStart(8)} ${f(m.p50_ms)} ${f(m.p99_ms)} ${f(m.max_ms)} ${f(cpu, 18)} ${faults.toFixed(0).padStart(11)} ${m.client_gc.ms.toFixed(1).padStart(13)}  ${statuses.padEnd(8)}  ${path}`,
    );
  }
} finally {
  await api.stop();
  store.revoke(record.id);
}
