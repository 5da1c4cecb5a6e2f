/**
 * An in-process mock Solana JSON-RPC server (node:http on a random port) over a chain held in
 * memory: getGenesisHash (mainnet-beta's), getSlot, getSignaturesForAddress (newest first,
 * `before` paging), getTransaction, getProgramAccounts and getMultipleAccounts (accounts are held
 * by owner program; both perps programs exist as executable accounts). It can inject faults
 * (HTTP 429 and 500, transactions not found yet) every n-th request to exercise the retries.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBase58Decoder } from '@solana/codecs';
import type { RpcTransaction } from '../../server/sources/solana/events.ts';
import type { SignatureInfo } from '../../server/sources/solana/rpc.ts';
import type { AccountBook } from './solana-mock-accounts.ts';

export class MockChain {
  readonly signatures = new Map<string, SignatureInfo[]>();
  readonly txs = new Map<string, RpcTransaction>();
  /** owner program → accounts (pubkey, data) for getProgramAccounts and getMultipleAccounts */
  readonly accounts = new Map<string, { pubkey: string; data: Uint8Array }[]>();
  /** executable program accounts getMultipleAccounts finds (the start-up check asks for them) */
  readonly programs = new Set(['Gmso1uvJnLbawvw7yezdfCDcPydwW2s2iqG3w6MDucLo', 'PERPHjGBqRHArX4DySjwM6UJHiR3sWAatqfdBS2qQJu']);
  genesisHash = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';
  /** when set, accounts with owners (solana-mock-accounts.ts) answer the account methods instead of `accounts` */
  book?: AccountBook;

  /** Appends a transaction of `program` at the chain's tip (slots must not go backwards). */
  add(program: string, tx: RpcTransaction, err: unknown = null): void {
    const list = this.signatures.get(program) ?? [];
    const signature = tx.transaction.signatures[0]!;
    if (list.length && list[list.length - 1]!.slot > tx.slot) throw new Error('MockChain: slots must not go backwards');
    list.push({ signature, slot: tx.slot, err, blockTime: tx.blockTime });
    this.signatures.set(program, list);
    this.txs.set(signature, err ? { ...tx, meta: { ...tx.meta!, err } } : tx);
  }

  tipSlot(): number {
    let tip = 0;
    for (const l of this.signatures.values()) tip = Math.max(tip, l[l.length - 1]?.slot ?? 0);
    return tip;
  }
}

export interface MockRpc {
  url: string;
  /** requests per method */
  calls: Record<string, number>;
  close(): Promise<void>;
}

export interface Faults {
  /** every n-th request gets HTTP 429 (0 = never) */
  rateLimitEvery?: number;
  /** every n-th request gets HTTP 500 */
  serverErrorEvery?: number;
  /** every n-th getTransaction answers null (not available yet) */
  notFoundEvery?: number;
  /** while true, every request gets HTTP 503 (an outage; the object may be changed while serving) */
  down?: boolean;
}

export async function startMockRpc(chain: MockChain, faults: Faults = {}): Promise<MockRpc> {
  const calls: Record<string, number> = {};
  let n = 0;
  let txCalls = 0;
  const b58 = getBase58Decoder();
  const handle = (method: string, params: unknown[]): unknown => {
    if (chain.book?.handles(method)) return chain.book.handle(method, params);
    switch (method) {
      case 'getGenesisHash':
        return chain.genesisHash;
      case 'getSlot':
        return chain.tipSlot();
      case 'getSignaturesForAddress': {
        const [address, cfg] = params as [string, { before?: string; until?: string; limit?: number }];
        const list = chain.signatures.get(address) ?? [];
        const end = cfg.before ? list.findIndex((s) => s.signature === cfg.before) : list.length;
        if (end < 0) throw Object.assign(new Error('Invalid param: unknown signature'), { code: -32602 });
        const start = cfg.until ? list.findIndex((s) => s.signature === cfg.until) + 1 : 0; // until is exclusive
        return list.slice(Math.max(start, end - (cfg.limit ?? 1000)), end).reverse();
      }
      case 'getTransaction': {
        const [sig, cfg] = params as [string, { maxSupportedTransactionVersion?: number; encoding?: string }];
        if (cfg.maxSupportedTransactionVersion !== 0 || cfg.encoding !== 'json') throw Object.assign(new Error('bad config'), { code: -32602 });
        if (faults.notFoundEvery && ++txCalls % faults.notFoundEvery === 0) return null;
        return chain.txs.get(sig) ?? null;
      }
      case 'getProgramAccounts': {
        const [program, cfg] = params as [string, { filters?: { memcmp: { offset: number; bytes: string } }[] }];
        const want = cfg.filters?.[0]?.memcmp.bytes;
        return (chain.accounts.get(program) ?? [])
          .filter((a) => want === undefined || b58.decode(a.data.subarray(0, 8)) === want)
          .map((a) => ({ pubkey: a.pubkey, account: { data: [Buffer.from(a.data).toString('base64'), 'base64'] } }));
      }
      case 'getMultipleAccounts': {
        const [keys] = params as [string[]];
        const all = [...chain.accounts.entries()].flatMap(([owner, list]) => list.map((a) => ({ ...a, owner })));
        const fromBook = chain.book?.multiple(keys);
        const value = keys.map((k, i) => {
          if (chain.programs.has(k)) return { owner: 'BPFLoaderUpgradeab1e11111111111111111111111', executable: true, data: ['', 'base64'] };
          if (fromBook) return fromBook[i];
          const a = all.find((x) => x.pubkey === k);
          return a ? { owner: a.owner, executable: false, data: [Buffer.from(a.data).toString('base64'), 'base64'] } : null;
        });
        return { context: { slot: chain.tipSlot() }, value };
      }
      default:
        throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 });
    }
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      n++;
      if (faults.down) {
        res.writeHead(503).end('down');
        return;
      }
      if (faults.rateLimitEvery && n % faults.rateLimitEvery === 0) {
        res.writeHead(429, { 'retry-after': '0' }).end('Too many requests');
        return;
      }
      if (faults.serverErrorEvery && n % faults.serverErrorEvery === 0) {
        res.writeHead(500).end('oops');
        return;
      }
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      calls[method] = (calls[method] ?? 0) + 1;
      let out: unknown;
      try {
        out = { jsonrpc: '2.0', id, result: handle(method, params) };
      } catch (err) {
        out = { jsonrpc: '2.0', id, error: { code: (err as { code?: number }).code ?? -32603, message: (err as Error).message } };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rpc?api-key=secret`,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
