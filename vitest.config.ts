import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const TEST_FILES = (readdirSync(join(ROOT, 'test'), { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts')).map((f) => join('test', f));

/**
 * Two projects. Most files share one module cache per worker (`isolate: false`): importing the
 * server's modules afresh in a process of its own cost ~2 s a file. A file that mocks a module
 * (`vi.mock`, e.g. keys.test.ts mocks node:crypto) needs a fresh module graph for the mock to take
 * effect, so such files are found here and run isolated.
 */
const MOCKING = TEST_FILES.filter((f) => /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(join(ROOT, f), 'utf8')));

/**
 * Test files run two at a time even on two cores, where vitest's default is one (cores − 1). On
 * this 2-core machine (2026-11-28) the suite took 392 and 405 s with two workers (188 % CPU)
 * against 490 s with one, all passing; docs/performance.md, "Test suite". At most four: each worker
 * holds its own DuckDB instances and simulated journals (in the two-worker run the largest
 * process peaked at 1.9 GB).
 */
const WORKERS = Math.min(4, Math.max(2, availableParallelism()));

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/record-keys.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKING, isolate: false } },
      ...(MOCKING.length ? [{ extends: true, test: { name: 'isolated', include: MOCKING, isolate: true } }] : []),
    ],
  },
});
