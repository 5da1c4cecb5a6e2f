import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { warmPageCache } from '../../server/lib/page-cache-warm.ts';

/** The page-cache warm-up reads every byte of its files (past one read's size), within its budget only. */
const dir = mkdtempSync(join(tmpdir(), 'page-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('page cache warm-up', () => {
  it('reads each file through, skips missing ones, and reads nothing over its budget', async () => {
    const big = join(dir, 'big');
    const small = join(dir, 'small');
    writeFileSync(big, Buffer.alloc(2_500_000, 7)); // more than two of its 1 MB reads
    writeFileSync(small, 'x'.repeat(1_234));
    const paths = [big, join(dir, 'missing'), small];
    expect(await warmPageCache(paths)).toBe(2_501_234);
    expect(await warmPageCache(paths, 2_501_233)).toBe(0);
    expect(await warmPageCache([])).toBe(0);
  });
});
