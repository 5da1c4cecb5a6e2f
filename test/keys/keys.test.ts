import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hash, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDataDir } from '../helpers/fixtures.ts';
import { apiKeyDigest, digestsEqual, generateApiKey, hashApiKey, keyIdOf, KEY_PATTERN } from '../../server/keys/format.ts';
import { KeyStore } from '../../server/keys/store.ts';
import { getPlan, PLAN_NAMES, SOLD_PLANS } from '../../server/keys/plans.ts';
import { demoKeysPath, ensureDemoKeys, type DemoKey } from '../../server/keys/demo.ts';
import { log } from '../../server/lib/log.ts';

// Wrap timingSafeEqual and hash so the tests can see every comparison, and when a key is hashed.
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:crypto')>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual), hash: vi.fn(real.hash) };
});

const dirs: (() => void)[] = [];
function dataDir(): string {
  const { dir, cleanup } = tempDataDir();
  dirs.push(cleanup);
  return dir;
}
afterEach(() => {
  while (dirs.length) dirs.pop()!();
  vi.restoreAllMocks();
});

const mode = (path: string) => statSync(path).mode & 0o777;

describe('key format', () => {
  it('is pa_<8-char id>_<32 base62>, unique, with the id recoverable', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const { id, key } = generateApiKey();
      expect(key).toMatch(/^pa_[a-z0-9]{8}_[A-Za-z0-9]{32}$/);
      expect(KEY_PATTERN.test(key)).toBe(true);
      expect(keyIdOf(key)).toBe(id);
      seen.add(key);
    }
    expect(seen.size).toBe(500);
    for (const bad of ['', 'pa_', 'pa_abcdefgh_short', ' pa_abcdefgh_' + 'a'.repeat(32), 'pa_ABCDEFGH_' + 'a'.repeat(32), 'pk_abcdefgh_' + 'a'.repeat(32)]) {
      expect(keyIdOf(bad)).toBeNull();
    }
  });

  it('hashes with SHA-256 (hex) and compares in constant time', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const raw = 'pa_abcdefgh_' + 'x'.repeat(32);
    const d = apiKeyDigest(raw);
    expect(d.toString('hex')).toBe(hashApiKey(raw));
    const spy = vi.mocked(timingSafeEqual);
    spy.mockClear();
    expect(digestsEqual(d, apiKeyDigest(raw))).toBe(true);
    expect(digestsEqual(d, apiKeyDigest('other'))).toBe(false);
    expect(digestsEqual(d, Buffer.from('not 32 bytes'))).toBe(false);
    expect(digestsEqual(Buffer.alloc(3), Buffer.alloc(3))).toBe(false);
    expect(spy).toHaveBeenCalledTimes(4);
  });
});

describe('plans', () => {
  it('holds the contract table', () => {
    expect(PLAN_NAMES).toEqual(['trial', 'starter', 'pro', 'premium', 'internal']);
    expect(SOLD_PLANS).toEqual(['trial', 'starter', 'pro', 'premium']);
    expect(getPlan('trial')).toMatchObject({ requestsPerMinute: 60, creditsPerMonth: 10_000, historyDays: 30, liquidationLookbackDays: 7, stream: false, mcp: false });
    expect(getPlan('starter')).toMatchObject({ requestsPerMinute: 300, creditsPerMonth: 250_000, historyDays: 30, liquidationLookbackDays: 30, mcp: false });
    expect(getPlan('pro')).toMatchObject({ requestsPerMinute: 1_200, creditsPerMonth: 2_000_000, historyDays: 90, liquidationLookbackDays: 90, stream: false, mcp: true });
    expect(getPlan('premium')).toMatchObject({
      requestsPerMinute: 3_000,
      creditsPerMonth: 10_000_000,
      historyDays: null,
      liquidationLookbackDays: null,
      stream: true,
      streamConnectionsPerAccount: 50,
      mcp: true,
    });
    expect(getPlan('internal')).toMatchObject({ requestsPerMinute: null, creditsPerMonth: null, historyDays: null, stream: true, streamConnectionsPerAccount: null, mcp: true });
    for (const p of PLAN_NAMES) expect(getPlan(p).fundingHistoryDays).toBe(30);
  });
});

describe('KeyStore', () => {
  it('stores only hashes, in a 0600 file written atomically', () => {
    const dir = dataDir();
    const store = KeyStore.open(dir);
    const created = [store.create({ plan: 'trial', label: 'a' }), store.create({ plan: 'pro', account: 'acme' })];
    const text = readFileSync(store.path, 'utf8');
    for (const { key, record } of created) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(-32));
      expect(text).toContain(hashApiKey(key));
      expect(text).toContain(record.id);
    }
    expect(mode(store.path)).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    expect(created[0]!.record).toMatchObject({ plan: 'trial', label: 'a', account: created[0]!.record.id, revoked_at: null });
    expect(created[1]!.record).toMatchObject({ plan: 'pro', label: null, account: 'acme' });
    for (const r of store.list()) expect(Object.keys(r)).not.toContain('sha256');
  });

  it('authenticates a key, and rejects wrong, unknown, malformed, missing and revoked ones', () => {
    const store = KeyStore.open(dataDir());
    const { key, record } = store.create({ plan: 'starter' });
    expect(store.authenticate(key)).toEqual(record);
    expect(store.authenticate(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeNull();
    expect(store.authenticate(`pa_zzzzzzzz_${key.slice(-32)}`)).toBeNull();
    expect(store.authenticate('garbage')).toBeNull();
    expect(store.authenticate(undefined)).toBeNull();
    expect(store.authenticate(null)).toBeNull();
    store.revoke(record.id);
    expect(store.authenticate(key)).toBeNull();
    expect(store.get(record.id)?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('takes the constant-time comparison on every path (valid, wrong secret, unknown id, malformed)', () => {
    const store = KeyStore.open(dataDir());
    const { key } = store.create({ plan: 'trial' });
    const spy = vi.mocked(timingSafeEqual);
    // the second round runs after `key` was verified once: its id then compares raw keys first
    for (const round of [1, 2]) {
      for (const attempt of [key, key.slice(0, -4) + 'zzzz', `pa_zzzzzzzz_${key.slice(-32)}`, 'nonsense', '']) {
        spy.mockClear();
        store.authenticate(attempt);
        expect(spy.mock.calls.length, `${round} ${attempt}`).toBeGreaterThanOrEqual(1);
        for (const [a, b] of spy.mock.calls) expect((a as Buffer).length).toBe((b as Buffer).length);
      }
    }
  });

  it('hashes a key once: later requests with it compare the raw key in constant time, until keys.json changes', () => {
    const store = KeyStore.open(dataDir());
    const { key, record } = store.create({ plan: 'trial' });
    const other = store.create({ plan: 'pro' });
    const hashed = vi.mocked(hash);
    hashed.mockClear();
    expect(store.authenticate(key)).toEqual(record);
    expect(hashed).toHaveBeenCalledTimes(1);
    hashed.mockClear();
    expect(store.authenticate(key)).toEqual(record);
    expect(store.authenticate(key)).toBe(store.authenticate(key)); // one frozen record, shared
    expect(Object.isFrozen(store.authenticate(key))).toBe(true);
    expect(hashed).not.toHaveBeenCalled();
    // a wrong secret under the verified id is hashed and refused
    expect(store.authenticate(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeNull();
    expect(hashed).toHaveBeenCalledTimes(1);
    expect(store.authenticate(key)).toEqual(record);
    // a change to keys.json (here: another key revoked) drops what was verified
    store.revoke(other.record.id);
    hashed.mockClear();
    expect(store.authenticate(key)).toEqual(record);
    expect(hashed).toHaveBeenCalledTimes(1);
    store.revoke(record.id);
    expect(store.authenticate(key)).toBeNull();
  });

  it('sees a plan change and a revocation made by another process without a restart (within 1 s)', () => {
    const dir = dataDir();
    let now = 1_000_000;
    const server = KeyStore.open(dir, { clock: () => now });
    const { key, record } = server.create({ plan: 'trial' });
    expect(server.authenticate(key)?.plan).toBe('trial');

    const cli = KeyStore.open(dir); // another process: its own store on the same file
    cli.setPlan(record.id, 'premium');
    now += 1000;
    expect(server.authenticate(key)?.plan).toBe('premium');

    KeyStore.open(dir).revoke(record.id);
    now += 1000;
    expect(server.authenticate(key)).toBeNull();
  });

  it('does not stat the file more than once per second', () => {
    const dir = dataDir();
    let now = 5_000;
    const server = KeyStore.open(dir, { clock: () => now });
    const { key, record } = server.create({ plan: 'trial' });
    KeyStore.open(dir).setPlan(record.id, 'pro');
    now += 500;
    expect(server.authenticate(key)?.plan).toBe('trial'); // not re-checked yet
    now += 500;
    expect(server.authenticate(key)?.plan).toBe('pro');
  });

  it("mutations re-read the file first, so two processes do not lose each other's keys", () => {
    const dir = dataDir();
    const a = KeyStore.open(dir);
    const b = KeyStore.open(dir);
    const ka = a.create({ plan: 'trial' });
    const kb = b.create({ plan: 'pro' });
    const fresh = KeyStore.open(dir);
    expect(
      fresh
        .list()
        .map((r) => r.id)
        .sort(),
    ).toEqual([ka.record.id, kb.record.id].sort());
  });

  it('refuses a corrupt keys.json and rejects unknown plans and ids', () => {
    const dir = dataDir();
    const store = KeyStore.open(dir);
    expect(() => store.create({ plan: 'gold' as never })).toThrow(/unknown plan/);
    expect(() => store.revoke('nokey000')).toThrow(/no key/);
    expect(() => store.setPlan('nokey000', 'pro')).toThrow(/no key/);
    writeFileSync(join(dir, 'keys.json'), '{"version":1,"keys":[{"id":1}]}');
    expect(() => KeyStore.open(dir)).toThrow(/malformed/);
  });
});

describe('demo keys', () => {
  it('are created once, on the first start with no keys, one per sold plan, in a 0600 file; only the path is logged', () => {
    const dir = dataDir();
    const logged: unknown[][] = [];
    for (const level of ['info', 'log', 'warn', 'error', 'debug', 'success', 'start', 'box'] as const) {
      vi.spyOn(log, level).mockImplementation((...args: unknown[]) => void logged.push(args));
    }
    const store = KeyStore.open(dir);
    const first = ensureDemoKeys(store);
    expect(first?.path).toBe(demoKeysPath(dir));
    expect(mode(demoKeysPath(dir))).toBe(0o600);
    const file = JSON.parse(readFileSync(demoKeysPath(dir), 'utf8')) as DemoKey[];
    expect(file.map((k) => k.plan)).toEqual(['trial', 'starter', 'pro', 'premium']);
    for (const k of file) {
      expect(Object.keys(k).sort()).toEqual(['id', 'key', 'label', 'plan']);
      expect(store.authenticate(k.key)).toMatchObject({ id: k.id, plan: k.plan });
    }
    const keysJson = readFileSync(store.path, 'utf8');
    const logText = JSON.stringify(logged.map((args) => args.map(String)));
    expect(logText).toContain(demoKeysPath(dir));
    for (const k of file) {
      expect(keysJson).not.toContain(k.key);
      expect(logText).not.toContain(k.key);
      expect(logText).not.toContain(k.key.slice(-32));
    }

    // a later start (new store on the same data dir) creates nothing and leaves the file alone
    const before = readFileSync(demoKeysPath(dir), 'utf8');
    expect(ensureDemoKeys(KeyStore.open(dir))).toBeNull();
    expect(ensureDemoKeys(store)).toBeNull();
    expect(readFileSync(demoKeysPath(dir), 'utf8')).toBe(before);
    expect(KeyStore.open(dir).list()).toHaveLength(4);
  });

  it('are not created when keys exist, even if all are revoked', () => {
    const dir = dataDir();
    const store = KeyStore.open(dir);
    store.revoke(store.create({ plan: 'internal' }).record.id);
    expect(ensureDemoKeys(KeyStore.open(dir))).toBeNull();
    expect(() => statSync(demoKeysPath(dir))).toThrow();
  });
});
