/**
 * The server side of the stream bench (server/bench/stream.ts forks it, so that its RSS is the
 * server's alone): a fresh service in a temp directory, the real HTTP + stream server on a random
 * port, an `internal` key (no connection cap), and on request an appender that feeds fills
 * through the one append path at a fixed rate. It reports, per fill, when the fill was handed to
 * the append path and when its commit reached the append listeners, and samples its RSS.
 *
 * IPC: → `{ type: 'ready', base, key, addresses }`; ← `{ type: 'run', rate, seconds }`;
 * → `{ type: 'done', fills: [seq, protocol, market, address, createdMs, committedMs][], appends,
 * elapsed, cpuSeconds, rss }`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../main/serve.ts';
import type { IncomingFill, Protocol } from '../journal/rows.ts';
import { KeyStore } from '../keys/store.ts';
import { openLimits } from '../limits/gate.ts';
import { openService } from '../service.ts';
import { BASE58_ALPHABET } from '../lib/address.ts';

/** Markets of the bench (alpha SOL has three variants, as in the demo). */
export const BENCH_MARKETS: { protocol: Protocol; market: string; variant: string | null }[] = [
  { protocol: 'alpha', market: 'SOL-PERP', variant: 'SOL/USD[WSOL-USDC]' },
  { protocol: 'alpha', market: 'SOL-PERP', variant: 'SOL/USD[WSOL]' },
  { protocol: 'alpha', market: 'SOL-PERP', variant: 'SOL/USD[USDC]' },
  { protocol: 'alpha', market: 'BTC-PERP', variant: 'BTC/USD[WBTC-USDC]' },
  { protocol: 'alpha', market: 'ETH-PERP', variant: 'ETH/USD[WETH-USDC]' },
  { protocol: 'beta', market: 'SOL-PERP', variant: null },
];

/** A deterministic base58 address of 44 characters. */
const addressOf = (i: number): string => {
  let s = '';
  let x = i * 7919 + 17;
  for (let k = 0; k < 44; k++) {
    s += BASE58_ALPHABET[x % 58];
    x = Math.floor(x / 58) + (k + 1) * 31 + i;
  }
  return s;
};

const now = (): number => performance.timeOrigin + performance.now();

let counter = 0;
/** One opening fill of a fresh lifecycle; `time` is the wall clock (ms). */
function benchFill(m: (typeof BENCH_MARKETS)[number], address: string): IncomingFill {
  counter += 1;
  const time = Math.floor(Date.now());
  return {
    protocol: m.protocol,
    time,
    slot: Math.floor(time / 400),
    tx: `bench${counter}`,
    event_index: 0,
    position_key: `BP${counter}`,
    address,
    market: m.market,
    market_variant: m.variant,
    side: counter % 2 ? 'long' : 'short',
    type: 'open',
    size_delta_usd: 1000 + (counter % 97),
    position_size_usd: 1000 + (counter % 97),
    collateral_delta_usd: 100,
    position_collateral_usd: 100,
    price: 100 + (counter % 13) / 7,
    entry_price: 100 + (counter % 13) / 7,
    pnl_delta_usd: 0,
    fee_usd: 0.5,
    borrowing_fee_usd: null,
    funding_fee_usd: null,
    liquidation_fee_usd: null,
    funding_earned_usd: null,
    fee_total_usd: 0.5,
    index_price: 100,
    collateral_token: 'USDC',
    position_entry_price: 100 + (counter % 13) / 7,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'perps-bench-stream-'));
const service = await openService({ dataDir: dir });
const keys = KeyStore.open(dir);
const limits = openLimits(dir);
const addresses = Array.from({ length: 200 }, (_, i) => addressOf(i));
await service.append({ fills: BENCH_MARKETS.map((m) => benchFill(m, addresses[0]!)), marketSnapshots: [], positionSnapshots: [] });
const server = await startServer({ service, keys, limits, port: 0, hostname: '127.0.0.1' });
const key = keys.create({ plan: 'internal', label: 'stream bench' }).key;

const committed = new Map<number, number>();
service.onAppend((fills) => {
  const t = now();
  for (const f of fills) committed.set(f.seq, t);
});

const rss: number[] = [];
const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 250);

async function run(rate: number, seconds: number): Promise<void> {
  const rows: [number, string, string, string, number, number][] = [];
  const start = now();
  const rssBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  rss.length = 0;
  let sent = 0;
  let appends = 0;
  const total = rate * seconds;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((now() - start) / 1000) * rate));
    if (due <= sent) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const batch: IncomingFill[] = [];
    const t = now();
    for (; sent < due; sent++) {
      // 80 % alpha (spread over its variants), 20 % beta; addresses uniform
      const m = BENCH_MARKETS[sent % 5 === 4 ? 5 : sent % 5]!;
      batch.push(benchFill(m, addresses[(sent * 37) % addresses.length]!));
    }
    const result = await service.append({ fills: batch, marketSnapshots: [], positionSnapshots: [] });
    appends++;
    for (const f of result.fills) {
      rows.push([f.seq, f.protocol, f.market, f.address, t, committed.get(f.seq) ?? now()]);
    }
  }
  const elapsed = (now() - start) / 1000;
  await new Promise((r) => setTimeout(r, 1_000)); // let the last frames go out
  const cpu = process.cpuUsage(cpuBefore);
  process.send!({ type: 'done', fills: rows, appends, elapsed, cpuSeconds: (cpu.user + cpu.system) / 1e6, rss: { before: rssBefore, max: Math.max(...rss), last: rss.at(-1) } });
}

process.on('message', (msg: { type: string; rate?: number; seconds?: number }) => {
  if (msg.type === 'run') void run(msg.rate ?? 200, msg.seconds ?? 30);
  if (msg.type === 'stop') {
    clearInterval(sampler);
    void (async () => {
      await server.close();
      limits.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    })();
  }
});
process.send!({ type: 'ready', base: `http://127.0.0.1:${server.port}`, key, addresses, rss: process.memoryUsage().rss });
