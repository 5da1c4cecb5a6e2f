import { existsSync } from 'node:fs';
import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { rebuildState } from '../../derive/rebuild.ts';
import { withDataLock } from '../startup-checks.ts';
import { numberFlag } from './flags.ts';

/** `rebuild`: throw the derived state away and derive it again from the journal alone. */
export const rebuildCommand = defineCommand({
  meta: {
    name: 'rebuild',
    description: 'Rebuild the derived state (state.duckdb) from the journal, in chunks; the server must be stopped. ' + 'An interrupted rebuild resumes where it stopped when run again',
  },
  args: {
    data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' },
    'chunk-rows': { type: 'string', description: 'rows folded per transaction (default $PERPS_CATCHUP_CHUNK_ROWS or 1000000)' },
  },
  async run({ args }) {
    const chunkRows = args['chunk-rows'] === undefined ? undefined : numberFlag('chunk-rows', args['chunk-rows'], { integer: true, min: 1 });
    const dataDir = args.data ?? configFromEnv().dataDir;
    if (!existsSync(dataDir)) throw new Error(`no data directory at ${dataDir}: nothing to rebuild`);
    await withDataLock(dataDir, () => rebuildState(dataDir, undefined, { chunkRows }));
  },
});
