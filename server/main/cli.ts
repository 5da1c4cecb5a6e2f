// first, for its side effect: allocator settings of bulk commands, read when DuckDB loads
import './cli-allocator.ts';
import { defineCommand, runMain } from 'citty';
import { withPlainErrors } from './commands/plain-errors.ts';

/** The one entry point: `tsx server/main/cli.ts <command>` (npm start = `start`). */
const main = withPlainErrors(
  defineCommand({
    meta: { name: 'perps', description: 'Perpetuals analytics data service' },
    // each command loaded when it runs (or `--help` lists it): `keys list` or a bad flag does not
    // load the HTTP server, DuckDB and the MCP SDK first (0.55 s instead of 1.3)
    subCommands: {
      start: () => import('./commands/start.ts').then((m) => m.startCommand),
      simulate: () => import('./commands/simulate.ts').then((m) => m.simulateCommand),
      rebuild: () => import('./commands/rebuild.ts').then((m) => m.rebuildCommand),
      keys: () => import('./commands/keys.ts').then((m) => m.keysCommand),
      latency: () => import('./commands/latency.ts').then((m) => m.latencyCommand),
      replay: () => import('./commands/replay.ts').then((m) => m.replayCommand),
      jobs: () => import('./commands/jobs.ts').then((m) => m.jobsCommand),
    },
  }),
);

void runMain(main);
