/**
 * The account-serving part of the mock Solana RPC (test/helpers/solana-mock-rpc.ts): accounts by
 * address with their owner program, answering getMultipleAccounts and getProgramAccounts with the
 * filters the indexer sends (memcmp at an offset, dataSize). Accounts are laid out by the tests
 * themselves at the documented offsets (`laid`), never by an encoder of ours.
 */
import { getBase58Decoder, getBase58Encoder } from '@solana/codecs';

export interface BookAccount {
  owner: string;
  data: Uint8Array;
}

type Filter = { memcmp?: { offset: number; bytes: string }; dataSize?: number };

/** `size` zero bytes with each [offset, bytes] written in place: a hand layout. */
export function laid(size: number, fields: [number, Uint8Array][]): Uint8Array {
  const out = new Uint8Array(size);
  for (const [at, bytes] of fields) out.set(bytes, at);
  return out;
}

const wire = (a: BookAccount) => ({ owner: a.owner, lamports: 1, executable: false, data: [Buffer.from(a.data).toString('base64'), 'base64'] });

export class AccountBook {
  readonly accounts = new Map<string, BookAccount>();
  /** requests per method answered from the book */
  readonly calls: Record<string, number> = {};

  set(pubkey: string, owner: string, data: Uint8Array): void {
    this.accounts.set(pubkey, { owner, data });
  }

  /** Overwrites bytes of an account in place (a program writing it). */
  write(pubkey: string, at: number, bytes: Uint8Array): void {
    this.accounts.get(pubkey)!.data.set(bytes, at);
  }

  /** The book answers getProgramAccounts; getMultipleAccounts goes through `multiple` (the mock adds the programs). */
  handles(method: string): boolean {
    return method === 'getProgramAccounts';
  }

  /** getMultipleAccounts' `value` for `keys` (null where the book has no account). */
  multiple(keys: string[]): unknown[] {
    this.calls.getMultipleAccounts = (this.calls.getMultipleAccounts ?? 0) + 1;
    if (keys.length > 100) throw Object.assign(new Error('Too many inputs provided; max 100'), { code: -32602 });
    return keys.map((k) => {
      const a = this.accounts.get(k);
      return a ? wire(a) : null;
    });
  }

  handle(method: string, params: unknown[]): unknown {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    const [program, cfg] = params as [string, { filters?: Filter[] }];
    const enc = getBase58Encoder();
    const matches = (a: BookAccount) =>
      (cfg.filters ?? []).every((f) => {
        if (f.dataSize !== undefined) return a.data.length === f.dataSize;
        const want = enc.encode(f.memcmp!.bytes);
        const at = f.memcmp!.offset;
        return a.data.length >= at + want.length && want.every((b, i) => a.data[at + i] === b);
      });
    return [...this.accounts].filter(([, a]) => a.owner === program && matches(a)).map(([pubkey, a]) => ({ pubkey, account: wire(a) }));
  }
}

/** A readable, valid base58 key for a label (32 bytes from the label's characters). */
export function labelKey(label: string): string {
  const bytes = new Uint8Array(32);
  new TextEncoder()
    .encode(label.padEnd(32, '.'))
    .slice(0, 32)
    .forEach((b, i) => (bytes[i] = b));
  return getBase58Decoder().decode(bytes);
}
