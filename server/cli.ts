// first, for its side effect: allocator settings of bulk commands, read when DuckDB loads
import './cli-allocator.ts';
import { defineCommand, runMain, type CommandDef } from 'citty';
import { withPlainErrors } from './commands/plain-errors.ts';

/**
 * A subcommand loaded when it runs (or when `--help` lists it): each command imports only what it
 * needs, so `keys list` or a bad flag does not load the HTTP server, DuckDB and the MCP SDK first
 * (1.3 s against ~0.55). `CommandDef<any>`: each command's args type is its own, as in citty's
 * SubCommandsDef.
 */
function lazy<T>(load: () => Promise<T>, pick: (module: T) => CommandDef<any>): () => Promise<CommandDef<any>> {
  return () => load().then((module) => withPlainErrors(pick(module)));
}

/** The one entry point: `tsx server/cli.ts <command>` (npm start = `start`). */
const main = withPlainErrors(defineCommand({
  meta: { name: 'perps', description: 'Perpetuals analytics data service' },
  subCommands: {
    start: lazy(() => import('./commands/start.ts'), (m) => m.startCommand),
    simulate: lazy(() => import('./commands/simulate.ts'), (m) => m.simulateCommand),
    rebuild: lazy(() => import('./commands/rebuild.ts'), (m) => m.rebuildCommand),
    keys: lazy(() => import('./commands/keys.ts'), (m) => m.keysCommand),
    latency: lazy(() => import('./commands/latency.ts'), (m) => m.latencyCommand),
    replay: lazy(() => import('./commands/replay.ts'), (m) => m.replayCommand),
    jobs: lazy(() => import('../jobs/command.ts'), (m) => m.jobsCommand),
  },
}));

void runMain(main);
