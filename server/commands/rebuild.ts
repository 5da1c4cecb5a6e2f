import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { rebuildState } from '../derive/rebuild.ts';

/** `rebuild`: throw the derived state away and derive it again from the journal alone. */
export const rebuildCommand = defineCommand({
  meta: { name: 'rebuild', description: 'Rebuild the derived state (state.duckdb) from the journal; the server must be stopped' },
  args: { data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' } },
  async run({ args }) {
    await rebuildState(args.data ?? configFromEnv().dataDir);
  },
});
