/**
 * Stream bench (`npm run bench:stream`): forks a server (server/bench/stream-server.ts) on a
 * fresh temp journal, opens 1,000 WebSocket subscribers across scopes, has the server append
 * fills at 200/s for 30 s through the one append path, and reports the latency from a fill being
 * handed to the append path to its frame arriving (p50/p99/max), the part of it after the commit
 * (the stream's own delay), deliveries against what each scope should get, and the server's RSS.
 *
 * Options (env): BENCH_CLIENTS (1000), BENCH_RATE (fills/s, 200), BENCH_SECONDS (30).
 * Clients and server share the machine: on a small one the clients' own CPU shows in the figures.
 */
import { fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);

interface Ready {
  type: 'ready';
  base: string;
  key: string;
  addresses: string[];
  rss: number;
}
interface Done {
  type: 'done';
  fills: [number, string, string, string, number, number][];
  appends: number;
  elapsed: number;
  cpuSeconds: number;
  rss: { before: number; max: number; last: number };
}
interface Scope {
  protocol: string;
  market?: string;
  address?: string;
}

const now = (): number => performance.timeOrigin + performance.now();
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const pct = (sorted: Float64Array, p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** 10 % whole alpha, 5 % whole beta, 25 % one alpha market, 50 % one address, 10 % market + address. */
function scopes(addresses: string[]): Scope[] {
  const markets = ['SOL-PERP', 'BTC-PERP', 'ETH-PERP'];
  return Array.from({ length: CLIENTS }, (_, i) => {
    const r = i % 20;
    if (r < 2) return { protocol: 'alpha' };
    if (r < 3) return { protocol: 'beta' };
    if (r < 8) return { protocol: 'alpha', market: markets[i % 3] };
    if (r < 18) return { protocol: 'alpha', address: addresses[i % addresses.length] };
    return { protocol: 'alpha', market: markets[i % 3], address: addresses[(i * 7) % addresses.length] };
  });
}

const server = fork(fileURLToPath(new URL('./stream-server.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, PERPS_LOG_LEVEL: process.env.PERPS_LOG_LEVEL ?? '1' },
});
const next = <T>(type: string): Promise<T> =>
  new Promise((resolve) => {
    const on = (msg: { type: string }) => {
      if (msg.type !== type) return;
      server.off('message', on);
      resolve(msg as T);
    };
    server.on('message', on);
  });

try {
  const ready = await next<Ready>('ready');
  const all = scopes(ready.addresses);
  // per client: received seqs and arrival times
  const received: { seqs: number[]; at: number[] }[] = all.map(() => ({ seqs: [], at: [] }));
  const sockets: WebSocket[] = [];
  const t0 = now();
  for (let from = 0; from < all.length; from += 100) {
    await Promise.all(
      all.slice(from, from + 100).map(
        (scope, k) =>
          new Promise<void>((resolve, reject) => {
            const i = from + k;
            const q = new URLSearchParams({ ...(scope.market ? { market: scope.market } : {}), ...(scope.address ? { address: scope.address } : {}) });
            const ws = new WebSocket(`${ready.base.replace('http', 'ws')}/v1/stream/${scope.protocol}/fills?${q}`, { headers: { 'x-api-key': ready.key } });
            ws.on('message', (data: Buffer) => {
              const t = now();
              const m = /"seq":(\d+)/.exec(data.toString('latin1', 0, 40)); // the seq is the first field
              if (m) {
                received[i]!.seqs.push(Number(m[1]));
                received[i]!.at.push(t);
              } else console.error(`client ${i}: ${data.toString()}`);
            });
            ws.once('open', () => resolve());
            ws.once('error', reject);
            sockets.push(ws);
          }),
      ),
    );
  }
  console.log(`${all.length} subscribers connected in ${((now() - t0) / 1000).toFixed(1)} s; server RSS ${mb(ready.rss)} before them`);

  const clientCpu = process.cpuUsage();
  server.send({ type: 'run', rate: RATE, seconds: SECONDS });
  const done = await next<Done>('done');
  const cpu = process.cpuUsage(clientCpu);
  const bySeq = new Map(done.fills.map((f) => [f[0], f]));

  let expected = 0;
  let delivered = 0;
  let outOfOrder = 0;
  const fromAppend: number[] = [];
  const fromCommit: number[] = [];
  all.forEach((scope, i) => {
    const want = done.fills.filter((f) => f[1] === scope.protocol && (!scope.market || f[2] === scope.market) && (!scope.address || f[3] === scope.address));
    expected += want.length;
    const got = received[i]!;
    const wanted = new Set(want.map((f) => f[0]));
    got.seqs.forEach((seq, k) => {
      if (k > 0 && seq <= got.seqs[k - 1]!) outOfOrder++;
      const f = bySeq.get(seq);
      if (!f || !wanted.has(seq)) return;
      delivered++;
      fromAppend.push(got.at[k]! - f[4]);
      fromCommit.push(got.at[k]! - f[5]);
    });
  });
  const a = Float64Array.from(fromAppend).sort();
  const c = Float64Array.from(fromCommit).sort();
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`appended ${done.fills.length} fills in ${done.elapsed.toFixed(1)} s (${(done.fills.length / done.elapsed).toFixed(0)}/s) in ${done.appends} appends`);
  console.log(`frames delivered ${delivered} of ${expected} expected (${outOfOrder} out of order)`);
  console.log(`append → receive: p50 ${ms(pct(a, 0.5))}, p99 ${ms(pct(a, 0.99))}, max ${ms(a[a.length - 1] ?? NaN)}`);
  console.log(`commit → receive: p50 ${ms(pct(c, 0.5))}, p99 ${ms(pct(c, 0.99))}, max ${ms(c[c.length - 1] ?? NaN)}`);
  const window = done.elapsed + 1;
  console.log(
    `CPU over the run: server ${((done.cpuSeconds / window) * 100).toFixed(0)} % of a core, ` +
      `subscribers' process ${(((cpu.user + cpu.system) / 1e6 / window) * 100).toFixed(0)} % (machine load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(`server RSS: ${mb(done.rss.before)} with the subscribers connected, max ${mb(done.rss.max)} while streaming, ${mb(done.rss.last)} at the end`);
  for (const ws of sockets) ws.terminate();
} finally {
  server.send({ type: 'stop' });
  await new Promise((resolve) => server.once('exit', resolve));
}
