import { defineConfig } from 'vitest/config';

/**
 * Two projects. Most files share one module cache per worker (`isolate: false`): re-importing the
 * server's modules in a fresh process for every file cost ~2 s a file. keys.test.ts mocks
 * node:crypto, which only takes effect on a fresh module graph, so it runs isolated.
 */
const MOCKS_BUILTINS = ['test/keys.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/record-keys.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: MOCKS_BUILTINS, isolate: false } },
      { extends: true, test: { name: 'isolated', include: MOCKS_BUILTINS, isolate: true } },
    ],
  },
});
