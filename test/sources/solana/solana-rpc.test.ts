/**
 * The solana source's RPC client and edges: retries with backoff on 429 / 5xx / transient node
 * errors / timeouts, a clear error for a bad or unreachable URL (never leaking the URL's key),
 * `--from` parsing, and the base58 codec against @solana/codecs.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { getBase58Decoder } from '@solana/codecs';
import { afterEach, describe, expect, it } from 'vitest';
import { openService } from '../../../server/service.ts';
import { base58ToBytes, bytesToBase58 } from '../../../server/sources/solana/base58.ts';
import { parseFrom, startSolanaSource } from '../../../server/sources/solana/indexer.ts';
import { SolanaRpc } from '../../../server/sources/solana/rpc.ts';
import { checkEndpoint } from '../../../server/sources/solana/startup-check.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';

/** A server answering each request with the next scripted reply (the last one repeats). */
async function scripted(replies: ({ status: number; body?: unknown } | 'hang')[]): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const r = replies[Math.min(hits++, replies.length - 1)]!;
      if (r === 'hang') return;
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify(r.body ?? {}));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/SECRETKEY?api-key=SECRETKEY`,
    hits: () => hits,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

const ok = (result: unknown) => ({ status: 200, body: { jsonrpc: '2.0', id: 1, result } });
const rpcError = (code: number, message: string) => ({ status: 200, body: { jsonrpc: '2.0', id: 1, error: { code, message } } });

describe('SolanaRpc', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('retries 429, 500 and a node that is behind, then answers', async () => {
    const s = await scripted([{ status: 429 }, { status: 503 }, rpcError(-32005, 'Node is behind'), ok(123)]);
    close = s.close;
    const rpc = new SolanaRpc({ url: s.url, backoffMs: 1 });
    expect(await rpc.getSlot()).toBe(123);
    expect(s.hits()).toBe(4);
  });

  it('fails at once on a non-transient JSON-RPC error, and after its retries on persistent 429s', async () => {
    const s = await scripted([rpcError(-32601, 'Method not found'), { status: 429 }]);
    close = s.close;
    const rpc = new SolanaRpc({ url: s.url, backoffMs: 1, retries: 3 });
    await expect(rpc.getSlot()).rejects.toThrow(/Method not found \(code -32601\)/);
    expect(s.hits()).toBe(1);
    await expect(rpc.getSlot()).rejects.toThrow(/HTTP 429/);
    expect(s.hits()).toBe(1 + 4);
  });

  it('times out a request that hangs and retries it', async () => {
    const s = await scripted(['hang', ok(7)]);
    close = s.close;
    const rpc = new SolanaRpc({ url: s.url, backoffMs: 1, timeoutMs: 200 });
    expect(await rpc.getSlot()).toBe(7);
    expect(s.hits()).toBe(2);
  });

  it('bounds the requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const server = createServer((req, res) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      req.resume();
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 1 }));
      }, 20);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    close = () => new Promise((r) => server.close(() => r()));
    const rpc = new SolanaRpc({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, concurrency: 3 });
    await Promise.all(Array.from({ length: 12 }, () => rpc.getSlot()));
    expect(peak).toBe(3);
  });
});

describe('bad endpoints', () => {
  it('a malformed URL is refused before anything starts', () => {
    expect(() => new SolanaRpc({ url: 'not a url' })).toThrow(/RPC URL is not a valid URL/);
    expect(() => new SolanaRpc({ url: 'ftp://example.com' })).toThrow(/unsupported scheme ftp/);
  });

  it('an unreachable endpoint stops the source with one clear error that does not leak the key', async () => {
    const data = tempDataDir();
    const service = await openService({ dataDir: data.dir });
    try {
      const feed = startSolanaSource(service, { url: 'http://127.0.0.1:9/rpc/SECRETKEY?api-key=SECRETKEY', backoffMs: 1 });
      const err = await feed.backfilled.then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).toMatch(/the RPC at http:\/\/127\.0\.0\.1:9 is not usable: getGenesisHash: cannot reach/);
      expect(err?.message).not.toContain('SECRETKEY');
      await feed.stop();
      expect(service.lastSeq()).toBe(0);
    } finally {
      await service.close();
      data.cleanup();
    }
  });

  it('refuses a data directory that holds simulated data', async () => {
    const data = tempDataDir();
    const service = await openService({ dataDir: data.dir });
    try {
      await service.append({ fills: [], marketSnapshots: [], positionSnapshots: [], checkpoint: { simulatedTo: 0 } }, { source: 'simulate' });
      const feed = startSolanaSource(service, { url: 'http://127.0.0.1:9' });
      await expect(feed.backfilled).rejects.toThrow(/holds simulated data/);
      await feed.stop();
    } finally {
      await service.close();
      data.cleanup();
    }
  });

  it('start --source solana with a bad --rpc or --from exits with the reason', async () => {
    const run = promisify(execFile);
    const data = tempDataDir();
    const start = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'server/main/cli.ts', 'start', '--source', 'solana', '--data', data.dir, '--port', '0', ...args], {
        env: { ...process.env, PERPS_LOG_LEVEL: '1' },
      }).then(
        () => '',
        (e: { stderr: string; stdout: string }) => e.stderr + e.stdout,
      );
    expect(await start('--rpc', 'nope')).toMatch(/RPC URL is not a valid URL/);
    expect(await start('--rpc', 'http://127.0.0.1:9', '--from', 'yesterday-ish')).toMatch(/--from: "yesterday-ish" is neither a slot number nor a date/);
    data.cleanup();
  }, 30_000);

  /** `start --source solana` with SOLANA_RPC_URL: its exit code, output and time. */
  async function startWith(url: string): Promise<{ code: number; out: string; ms: number }> {
    const data = tempDataDir();
    const t0 = Date.now();
    try {
      return await new Promise((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'server/main/cli.ts', 'start', '--source', 'solana', '--data', data.dir, '--port', '0'],
          { env: { ...process.env, SOLANA_RPC_URL: url, PERPS_LOG_LEVEL: '3' }, timeout: 90_000 },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, out: stdout + stderr, ms: Date.now() - t0 }),
        );
      });
    } finally {
      data.cleanup();
    }
  }
  const lines = (out: string) => out.split('\n').filter((l) => l.trim() !== '');

  it('start --source solana exits non-zero with one line when the RPC cannot be reached, never echoing its key', async () => {
    const r = await startWith('http://127.0.0.1:9/v1/SECRETKEY?api-key=SECRETKEY');
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(60_000);
    expect(lines(r.out)).toHaveLength(1);
    expect(r.out).toMatch(/the RPC at http:\/\/127\.0\.0\.1:9 is not usable/);
    expect(r.out).not.toContain('SECRETKEY');
  }, 90_000);

  it('start --source solana exits non-zero with one line on another chain, or without the programs', async () => {
    const genesis = (hash: string) => ({ status: 200, body: { jsonrpc: '2.0', id: 1, result: hash } });
    const devnet = await scripted([genesis('EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG')]);
    try {
      const r = await startWith(devnet.url);
      expect(r.code).toBe(1);
      expect(lines(r.out)).toHaveLength(1);
      expect(r.out).toMatch(/genesis hash is EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG, not mainnet-beta's 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d/);
      expect(r.out).not.toContain('SECRETKEY');
    } finally {
      await devnet.close();
    }
    const noPrograms = await scripted([genesis('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d'), ok({ context: { slot: 1 }, value: [null, null] })]);
    try {
      const r = await startWith(noPrograms.url);
      expect(r.code).toBe(1);
      expect(lines(r.out)).toHaveLength(1);
      expect(r.out).toMatch(/program Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo does not exist there/);
    } finally {
      await noPrograms.close();
    }
  }, 90_000);

  it('start --source solana stops with exit status 1 when the source cannot start after the check (no getProgramAccounts)', async () => {
    const genesis = ok('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d');
    const programs = ok({
      context: { slot: 1 },
      value: [
        { owner: 'BPFLoaderUpgradeab1e11111111111111111111111', executable: true, data: ['', 'base64'] },
        { owner: 'BPFLoaderUpgradeab1e11111111111111111111111', executable: true, data: ['', 'base64'] },
      ],
    });
    // the check in `start`, the source's own check, then getProgramAccounts refused (as some free tiers do)
    const s = await scripted([genesis, programs, ok(5), genesis, programs, ok(5), rpcError(-32601, 'Method not found')]);
    try {
      const r = await startWith(s.url);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/solana: the source cannot start: getProgramAccounts: Method not found/);
      expect(r.out).not.toContain('SECRETKEY');
    } finally {
      await s.close();
    }
  }, 90_000);

  it('an endpoint that hangs fails the start-up check within its deadline', async () => {
    const s = await scripted(['hang']);
    try {
      const rpc = new SolanaRpc({ url: s.url, timeoutMs: 5_000 });
      const t0 = Date.now();
      await expect(checkEndpoint(rpc, { deadlineMs: 300 })).rejects.toThrow(/is not usable: no answer within 0.3 s/);
      expect(Date.now() - t0).toBeLessThan(2_000);
    } finally {
      await s.close();
    }
  });
});

describe('--from and base58', () => {
  it('parses slots and dates', () => {
    expect(parseFrom('330000000')).toEqual({ slot: 330_000_000 });
    expect(parseFrom('2025-03-12')).toEqual({ time: Date.UTC(2025, 2, 12) });
    expect(parseFrom(undefined)).toBeUndefined();
  });

  it('matches @solana/codecs on random data, leading zeros included', () => {
    const ref = getBase58Decoder();
    let seed = 1;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 200; n++) {
      const bytes = Uint8Array.from({ length: n % 7 === 0 ? n * 5 : n }, () => (rand() < 0.1 ? 0 : Math.floor(rand() * 256)));
      if (n % 4 === 0 && bytes.length > 2) bytes[0] = bytes[1] = 0;
      const text = ref.decode(bytes);
      expect(bytesToBase58(bytes)).toBe(text);
      expect(base58ToBytes(text)).toEqual(bytes);
    }
    expect(() => base58ToBytes('0OIl')).toThrow(/invalid character/);
  });
});
