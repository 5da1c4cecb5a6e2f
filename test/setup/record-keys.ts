import { appendFileSync } from 'node:fs';
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';

/**
 * Records every API key this worker handles, for the key audit of test/setup/global.ts. Every
 * key, created or presented, is SHA-256 hashed (server/keys/format.ts), so the hash input is
 * watched for strings of the key format. This file imports no server module on purpose: loading
 * one here would bypass the vi.mock calls of test files (e.g. keys.test.ts mocks node:crypto's
 * timingSafeEqual and hash; its mock spreads and wraps the real module's functions, these wrappers
 * by then, so its keys are still recorded). test/keys/key-audit.test.ts checks that keys reach the list.
 */
const dir = process.env.PERPS_AUDIT_DIR;
const KEY = /^pa_[a-z0-9]{8}_[A-Za-z0-9]{32}$/;
// vitest runs setup files before every test file; where files share a process (the `shared`
// project of vitest.config.ts) the wrappers are installed once, not stacked
const state = globalThis as { perpsKeysRecorded?: boolean };
if (dir && !state.perpsKeysRecorded) {
  state.perpsKeysRecorded = true;
  appendFileSync(join(dir, 'wired'), `${process.pid}\n`); // proof for the teardown that recording ran
  const seen = new Set<string>();
  const record = (data: unknown): void => {
    if (typeof data === 'string' && KEY.test(data) && !seen.has(data)) {
      seen.add(data);
      appendFileSync(join(dir, `keys-${process.pid}.txt`), `${data}\n`);
    }
  };
  // server/keys/format.ts hashes with the one-shot `crypto.hash`; `createHash` is watched too, so
  // the recorder keeps working whichever of the two the key code uses
  const realHash = crypto.hash;
  crypto.hash = ((algorithm: string, data: crypto.BinaryLike, outputEncoding?: crypto.BinaryToTextEncoding | 'buffer') => {
    record(data);
    return realHash(algorithm, data, outputEncoding as crypto.BinaryToTextEncoding);
  }) as typeof crypto.hash;
  const realCreateHash = crypto.createHash;
  crypto.createHash = ((algorithm: string, options?: crypto.HashOptions) => {
    const hash = realCreateHash(algorithm, options);
    const update = hash.update.bind(hash) as (data: crypto.BinaryLike, encoding?: crypto.Encoding) => crypto.Hash;
    hash.update = ((data: crypto.BinaryLike, encoding?: crypto.Encoding) => {
      record(data);
      return update(data, encoding);
    }) as crypto.Hash['update'];
    return hash;
  }) as typeof crypto.createHash;
  syncBuiltinESMExports(); // named imports of node:crypto see the wrapper too
}
