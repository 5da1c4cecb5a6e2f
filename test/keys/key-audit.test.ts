/**
 * The key audit (test/setup/global.ts) is only as good as its recorder (test/setup/record-keys.ts):
 * every key the key code hashes must reach the recorded list, whichever node:crypto function
 * server/keys/format.ts uses. Until this test, the recorder watched `createHash` only while the key
 * code had moved to the one-shot `hash`, and the audit checked 0 keys without failing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiKeyDigest, generateApiKey, hashApiKey } from '../../server/keys/format.ts';

/** Keys this process recorded so far. */
function recorded(): string[] {
  const dir = process.env.PERPS_AUDIT_DIR;
  expect(dir, 'the global setup sets PERPS_AUDIT_DIR').toBeTruthy();
  const file = join(dir!, `keys-${process.pid}.txt`);
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

describe('key audit recorder', () => {
  it('records a key hashed for storage and a key hashed per request', () => {
    const stored = generateApiKey().key;
    hashApiKey(stored);
    expect(recorded()).toContain(stored);

    const presented = generateApiKey().key;
    apiKeyDigest(presented);
    expect(recorded()).toContain(presented);
  });

  it('records nothing that is not of the key format', () => {
    const before = recorded().length;
    hashApiKey('pa_short_key');
    expect(recorded()).toHaveLength(before);
  });
});
