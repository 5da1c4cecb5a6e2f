/**
 * A small Solana JSON-RPC client over fetch: bounded concurrency, retries with exponential
 * backoff (and jitter) on network errors, timeouts, HTTP 429 / 5xx and the node's transient
 * JSON-RPC errors, honouring Retry-After. Every read is at `finalized` commitment.
 *
 * RPC URLs often carry an API key (path or query): only the origin is ever logged or put in an
 * error message (`redactUrl`).
 */
import { log } from '../../lib/log.ts';
import type { RpcTransaction } from './events.ts';

export interface RpcOptions {
  url: string;
  /** requests in flight at most (default 8) */
  concurrency?: number;
  /** retries after the first attempt (default 8) */
  retries?: number;
  /** per-request timeout (default 30 s) */
  timeoutMs?: number;
  /** first backoff delay (default 400 ms), doubled per retry up to 30 s */
  backoffMs?: number;
}

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly transient = false,
  ) {
    super(message);
  }
}

/** The URL without path, query or credentials: safe to log. */
export function redactUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '<invalid url>';
  }
}

/** Node errors worth retrying: behind, block or slot not available yet, rate limited. */
const TRANSIENT_CODES = new Set([-32004, -32005, -32014, -32016, 429]);

export interface SignatureInfo {
  signature: string;
  slot: number;
  err: unknown;
  blockTime: number | null;
}

export interface AccountInfo {
  pubkey: string;
  data: Uint8Array;
}

/**
 * An account read by address (getMultipleAccounts): its owner program, which the account decoders
 * and the start-up check verify, and whether it is an executable program.
 */
export interface OwnedAccount extends AccountInfo {
  owner: string;
  executable: boolean;
}

/** getMultipleAccounts takes at most this many keys per request. */
const MULTIPLE_ACCOUNTS_LIMIT = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Throws a clear error for a URL the client cannot use (checked before anything starts). */
export function checkRpcUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RpcError('the solana RPC URL is not a valid URL (expected http(s)://host[:port][/path])');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RpcError(`the solana RPC URL has an unsupported scheme ${parsed.protocol} (use http or https)`);
}

export class SolanaRpc {
  readonly origin: string;
  private readonly url: string;
  private readonly concurrency: number;
  private readonly retries: number;
  private readonly timeoutMs: number;
  private readonly backoffMs: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private nextId = 1;
  /** requests sent (attempts included): for the indexer's cost figures */
  requests = 0;

  constructor(opts: RpcOptions) {
    checkRpcUrl(opts.url);
    this.url = opts.url;
    this.origin = new URL(opts.url).origin;
    this.concurrency = opts.concurrency ?? 8;
    this.retries = opts.retries ?? 8;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.backoffMs = opts.backoffMs ?? 400;
  }

  private async acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** One JSON-RPC call with retries; `retries` overrides the client's default. */
  async call<T>(method: string, params: unknown[], retries = this.retries): Promise<T> {
    await this.acquire();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          return await this.once<T>(method, params);
        } catch (err) {
          const e = err instanceof RpcError ? err : new RpcError(`${method}: ${(err as Error).message}`, undefined, true);
          if (!e.transient || attempt >= retries) throw e;
          const delay = Math.min(30_000, this.backoffMs * 2 ** attempt) * (0.75 + Math.random() * 0.5);
          const wait = Math.max(delay, (e as RpcError & { retryAfterMs?: number }).retryAfterMs ?? 0);
          log.debug(`solana rpc ${this.origin}: ${e.message}; retry ${attempt + 1}/${retries} in ${Math.round(wait)} ms`);
          await sleep(wait);
        }
      }
    } finally {
      this.release();
    }
  }

  private async once<T>(method: string, params: unknown[]): Promise<T> {
    this.requests++;
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const c = (err as Error & { cause?: { code?: string; message?: string } }).cause;
      const cause = c?.code ?? c?.message ?? (err as Error).name;
      throw new RpcError(`${method}: cannot reach ${this.origin} (${cause})`, undefined, true);
    }
    if (res.status === 429 || res.status >= 500) {
      const e = new RpcError(`${method}: HTTP ${res.status} from ${this.origin}`, res.status, true) as RpcError & { retryAfterMs?: number };
      const after = Number(res.headers.get('retry-after'));
      if (after > 0) e.retryAfterMs = after * 1000;
      await res.body?.cancel();
      throw e;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new RpcError(`${method}: HTTP ${res.status} from ${this.origin}`, res.status);
    }
    const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
    if (body.error) {
      throw new RpcError(`${method}: ${body.error.message} (code ${body.error.code})`, body.error.code, TRANSIENT_CODES.has(body.error.code));
    }
    return body.result as T;
  }

  getSlot(): Promise<number> {
    return this.call<number>('getSlot', [{ commitment: 'finalized' }]);
  }

  /** One page of signatures of `address`, newest first, strictly between `until` and `before`. */
  getSignaturesForAddress(address: string, opts: { before?: string; until?: string; limit?: number } = {}): Promise<SignatureInfo[]> {
    const cfg = { commitment: 'finalized', limit: opts.limit ?? 1000, ...(opts.before ? { before: opts.before } : {}), ...(opts.until ? { until: opts.until } : {}) };
    return this.call('getSignaturesForAddress', [address, cfg]);
  }

  /** A finalized transaction with its inner instructions; a node that has not got it yet is retried. */
  async getTransaction(signature: string): Promise<RpcTransaction> {
    for (let attempt = 0; ; attempt++) {
      const tx = await this.call<RpcTransaction | null>('getTransaction', [signature, { encoding: 'json', commitment: 'finalized', maxSupportedTransactionVersion: 0 }]);
      if (tx) return tx;
      if (attempt >= this.retries) throw new RpcError(`getTransaction: ${signature} not found at ${this.origin}`);
      await sleep(Math.min(30_000, this.backoffMs * 2 ** attempt));
    }
  }

  getGenesisHash(retries?: number): Promise<string> {
    return this.call<string>('getGenesisHash', [], retries);
  }

  /** Accounts by address, in order (null where none exists), in requests of at most 100 keys. */
  async getMultipleAccounts(keys: readonly string[], retries?: number): Promise<(OwnedAccount | null)[]> {
    const batches: string[][] = [];
    for (let i = 0; i < keys.length; i += MULTIPLE_ACCOUNTS_LIMIT) batches.push(keys.slice(i, i + MULTIPLE_ACCOUNTS_LIMIT));
    const answers = await Promise.all(
      batches.map((b) =>
        this.call<{ value: ({ owner: string; executable?: boolean; data: [string, string] } | null)[] }>('getMultipleAccounts', [b, { commitment: 'finalized', encoding: 'base64' }], retries),
      ),
    );
    return answers.flatMap((a, i) => a.value.map((v, j) => (v ? { pubkey: batches[i]![j]!, owner: v.owner, executable: v.executable ?? false, data: Buffer.from(v.data[0], 'base64') } : null)));
  }

  /**
   * Accounts of `program` whose data starts with `discriminator` (base58 of the 8 bytes), and
   * match the further `filters` (memcmp / dataSize, as the RPC method takes them).
   */
  async getProgramAccounts(program: string, discriminatorB58: string, filters: object[] = []): Promise<AccountInfo[]> {
    const rows = await this.call<{ pubkey: string; account: { data: [string, string] } }[]>('getProgramAccounts', [
      program,
      { commitment: 'finalized', encoding: 'base64', filters: [{ memcmp: { offset: 0, bytes: discriminatorB58 } }, ...filters] },
    ]);
    return rows.map((r) => ({ pubkey: r.pubkey, data: Buffer.from(r.account.data[0], 'base64') }));
  }
}
