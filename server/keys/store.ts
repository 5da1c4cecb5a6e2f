/**
 * API keys at rest: `<dataDir>/keys.json` (mode 0600), `{ "version": 1, "keys": StoredKey[] }`.
 * Holds each key's id, SHA-256, plan, label, account and times — never a raw key. Every write
 * goes to a temp file that is fsynced and renamed into place. The server and the `keys` CLI are
 * different processes: a mutation re-reads the file first, and `authenticate` notices a changed
 * file (inode, size, mtime, ctime) at most `recheckMs` (1 s) later without a restart.
 */
import { timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../lib/fs-atomic.ts';
import { join } from 'node:path';
import { apiKeyDigest, digestsEqual, generateApiKey, hashApiKey, keyIdOf } from './format.ts';
import { isPlanName, type PlanName } from './plans.ts';
import { log } from '../lib/log.ts';

/** A key as `keys list` and request handlers see it (no hash). */
export interface ApiKeyRecord {
  id: string;
  plan: PlanName;
  label: string | null;
  /** owner of the key; per-account limits count across its keys. Defaults to the key id. */
  account: string;
  created_at: string;
  revoked_at: string | null;
}

/** A key as stored in keys.json: the record plus the SHA-256 (hex) of the whole raw key. */
export interface StoredKey extends ApiKeyRecord {
  sha256: string;
}

/** Options of {@link KeyStore.open}. */
export interface KeyStoreOptions {
  /** epoch ms (tests pin it); default Date.now */
  clock?: () => number;
  /** how often `authenticate` may stat keys.json for changes by another process; default 1000 ms */
  recheckMs?: number;
}

/** Compared against when the key id is unknown, so that path costs the same as a wrong secret. */
const DUMMY_DIGEST = apiKeyDigest('pa_00000000_00000000000000000000000000000000');

/**
 * What a request is checked against, built once per load of keys.json: the stored hash as bytes,
 * the record handed to every request (frozen: shared by all of them; null when revoked), and the
 * raw key of the first request whose hash matched. A later request with the same id is compared
 * with that raw key in constant time instead of being hashed again: a SHA-256 cost ~7 µs a request
 * under load, the largest part of answering from the response cache. The raw key is kept only in
 * this process's memory (as every request's headers are), never written or logged, and dropped
 * with the verifier when keys.json changes (a revocation, another process's edit).
 */
interface Verifier {
  digest: Buffer;
  record: Readonly<ApiKeyRecord> | null;
  verified: Buffer | null;
}

function publicView(k: StoredKey): ApiKeyRecord {
  return { id: k.id, plan: k.plan, label: k.label, account: k.account, created_at: k.created_at, revoked_at: k.revoked_at };
}

function parseFile(text: string, path: string): StoredKey[] {
  const doc = JSON.parse(text) as { version?: unknown; keys?: unknown };
  if (doc.version !== 1 || !Array.isArray(doc.keys)) throw new Error(`${path}: not a version 1 key file`);
  for (const k of doc.keys as StoredKey[]) {
    if (typeof k.id !== 'string' || typeof k.sha256 !== 'string' || !isPlanName(k.plan)) {
      throw new Error(`${path}: malformed key entry`);
    }
  }
  return doc.keys as StoredKey[];
}

/**
 * The key store of one data directory: create / list / get / revoke / setPlan / authenticate.
 * Synchronous (the file is small; the CLI and the server share it).
 */
export class KeyStore {
  /** path of keys.json */
  readonly path: string;
  private keys = new Map<string, StoredKey>();
  private verifiers = new Map<string, Verifier>();
  private signature = '';
  private checkedAt = -Infinity;
  private readonly clock: () => number;
  private readonly recheckMs: number;

  private constructor(
    readonly dataDir: string,
    opts: KeyStoreOptions,
  ) {
    this.path = join(dataDir, 'keys.json');
    this.clock = opts.clock ?? Date.now;
    this.recheckMs = opts.recheckMs ?? 1000;
  }

  /** Opens the store of `dataDir` (created on first write). Throws on a corrupt keys.json. */
  static open(dataDir: string, opts: KeyStoreOptions = {}): KeyStore {
    const store = new KeyStore(dataDir, opts);
    store.load();
    return store;
  }

  private statSignature(): string {
    const st = statSync(this.path, { throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : 'absent';
  }

  /** (Re)reads keys.json; throws when it is unreadable or malformed. */
  private load(): void {
    const signature = this.statSignature();
    const list = signature === 'absent' ? [] : parseFile(readFileSync(this.path, 'utf8'), this.path);
    this.keys = new Map(list.map((k) => [k.id, k]));
    this.index();
    this.signature = signature;
    this.checkedAt = this.clock();
  }

  /** Builds the per-request verifiers from `keys` (a revoked key keeps its digest, so it costs the same). */
  private index(): void {
    this.verifiers = new Map(
      [...this.keys.values()].map((k) => {
        const digest = Buffer.from(k.sha256, 'hex');
        return [k.id, { digest, record: k.revoked_at === null ? Object.freeze(publicView(k)) : null, verified: null }];
      }),
    );
  }

  /** Picks up another process's changes, at most once per `recheckMs`; keeps the old state on error. */
  private refresh(): void {
    const now = this.clock();
    if (now - this.checkedAt < this.recheckMs) return;
    this.checkedAt = now;
    try {
      if (this.statSignature() !== this.signature) this.load();
    } catch (err) {
      log.warn(`keys: cannot reload ${this.path}, keeping the previous keys:`, (err as Error).message);
    }
  }

  /** Re-reads the file, applies `change`, writes it back atomically. */
  private mutate<T>(change: (keys: Map<string, StoredKey>) => T): T {
    this.load();
    const result = change(this.keys);
    mkdirSync(this.dataDir, { recursive: true });
    writeFileAtomic(this.path, `${JSON.stringify({ version: 1, keys: [...this.keys.values()] }, null, 2)}\n`, 0o600);
    this.index();
    this.signature = this.statSignature();
    return result;
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  /** Number of keys ever created (revoked ones included). */
  get size(): number {
    this.refresh();
    return this.keys.size;
  }

  /**
   * Creates a key and returns it with its record. The raw key exists only in this return value:
   * show it once, never log it.
   */
  create(opts: { plan: PlanName; label?: string | null; account?: string | null }): { key: string; record: ApiKeyRecord } {
    if (!isPlanName(opts.plan)) throw new Error(`unknown plan ${JSON.stringify(opts.plan)}`);
    return this.mutate((keys) => {
      let generated = generateApiKey();
      while (keys.has(generated.id)) generated = generateApiKey();
      const stored: StoredKey = {
        id: generated.id,
        sha256: hashApiKey(generated.key),
        plan: opts.plan,
        label: opts.label ?? null,
        account: opts.account ?? generated.id,
        created_at: this.now(),
        revoked_at: null,
      };
      keys.set(stored.id, stored);
      return { key: generated.key, record: publicView(stored) };
    });
  }

  /** Every key (revoked included), oldest first, without hashes. */
  list(): ApiKeyRecord[] {
    this.refresh();
    return [...this.keys.values()].map(publicView).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  /** One key by id, or undefined. */
  get(id: string): ApiKeyRecord | undefined {
    this.refresh();
    const k = this.keys.get(id);
    return k && publicView(k);
  }

  /** Revokes a key (idempotent: the first revocation time stays). Throws on an unknown id. */
  revoke(id: string): ApiKeyRecord {
    return this.mutate((keys) => {
      const k = keys.get(id);
      if (!k) throw new Error(`no key with id ${JSON.stringify(id)}`);
      k.revoked_at ??= this.now();
      return publicView(k);
    });
  }

  /** Moves a key to another plan. Throws on an unknown id or plan. */
  setPlan(id: string, plan: PlanName): ApiKeyRecord {
    if (!isPlanName(plan)) throw new Error(`unknown plan ${JSON.stringify(plan)}`);
    return this.mutate((keys) => {
      const k = keys.get(id);
      if (!k) throw new Error(`no key with id ${JSON.stringify(id)}`);
      k.plan = plan;
      return publicView(k);
    });
  }

  /**
   * The record of a raw key (frozen, shared by every request with that key), or null when it is
   * missing, malformed, unknown or revoked. Every comparison runs in constant time: with the raw
   * key already verified for that id when there is one, else (and when that one differs) of the
   * key's hash with the stored one, or with a dummy digest when the id is unknown. Only whether an
   * id was verified before shows in the time taken, and ids are not secret (`keys list`, logs).
   */
  authenticate(raw: string | null | undefined): Readonly<ApiKeyRecord> | null {
    this.refresh();
    const text = typeof raw === 'string' ? raw : '';
    const id = keyIdOf(text);
    const verifier = id === null ? undefined : this.verifiers.get(id);
    // a well-formed key (`id` not null) is 44 ASCII characters: the lengths compared are equal
    if (verifier?.verified && timingSafeEqual(Buffer.from(text, 'latin1'), verifier.verified)) return verifier.record;
    const match = digestsEqual(apiKeyDigest(text), verifier?.digest ?? DUMMY_DIGEST);
    if (!match || !verifier) return null;
    verifier.verified = Buffer.from(text, 'latin1');
    return verifier.record;
  }
}
