import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const TEST_FILES = (readdirSync(join(ROOT, 'test'), { recursive: true }) as string[])
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f));

/**
 * Two projects. Most files share one module cache per worker (`isolate: false`): importing the
 * server's modules afresh in a process of its own cost ~2 s a file. A file that mocks a module
 * (`vi.mock`, e.g. keys.test.ts mocks node:crypto) needs a fresh module graph for the mock to take
 * effect, so such files are found here and run isolated.
 */
const MOCKING = TEST_FILES.filter((f) => /\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(join(ROOT, f), 'utf8')));

export default defineConfig({
  test: {
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
