import { defineCommand, runMain } from 'citty';
import { keysCommand } from './commands/keys.ts';
import { latencyCommand } from './commands/latency.ts';
import { rebuildCommand } from './commands/rebuild.ts';
import { simulateCommand } from './commands/simulate.ts';
import { startCommand } from './commands/start.ts';

/** The one entry point: `tsx server/cli.ts <command>` (npm start = `start`). */
const main = defineCommand({
  meta: { name: 'perps', description: 'Perpetuals analytics data service' },
  subCommands: { start: startCommand, simulate: simulateCommand, rebuild: rebuildCommand, keys: keysCommand, latency: latencyCommand },
});

void runMain(main);
