// first, for its side effect: allocator settings of bulk commands, read when DuckDB loads
import './cli-allocator.ts';
import { defineCommand, runMain } from 'citty';
import { jobsCommand } from '../jobs/command.ts';
import { keysCommand } from './commands/keys.ts';
import { latencyCommand } from './commands/latency.ts';
import { withPlainErrors } from './commands/plain-errors.ts';
import { rebuildCommand } from './commands/rebuild.ts';
import { replayCommand } from './commands/replay.ts';
import { simulateCommand } from './commands/simulate.ts';
import { startCommand } from './commands/start.ts';

/** The one entry point: `tsx server/cli.ts <command>` (npm start = `start`). */
const main = withPlainErrors(defineCommand({
  meta: { name: 'perps', description: 'Perpetuals analytics data service' },
  subCommands: { start: startCommand, simulate: simulateCommand, rebuild: rebuildCommand, keys: keysCommand, latency: latencyCommand,
    replay: replayCommand, jobs: jobsCommand },
}));

void runMain(main);
