import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { parseTimestamp, TIMESTAMP_MESSAGE } from '../../http/params.ts';
import { numberFlag } from './flags.ts';
import { openService } from '../../service.ts';
import { withDataLock } from '../startup-checks.ts';
import { backfillSimulator } from '../../sources/simulate/source.ts';

/** `simulate`: fill (or extend) a journal with simulated history, without serving it. */
export const simulateCommand = defineCommand({
  meta: { name: 'simulate', description: 'Append simulated history to the journal up to --until (default now), then exit' },
  args: {
    data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' },
    seed: { type: 'string', default: '42', description: 'simulator seed' },
    scale: { type: 'string', default: '1', description: 'scale (10 → ~10x traders and fills)' },
    until: { type: 'string', description: 'RFC 3339 time to simulate to (default now)' },
  },
  async run({ args }) {
    const dataDir = args.data ?? configFromEnv().dataDir;
    const until = args.until ? parseTimestamp(args.until) : Date.now();
    if (until === undefined) throw new Error(`--until ${TIMESTAMP_MESSAGE}, got "${args.until}"`);
    const opts = { seed: numberFlag('seed', args.seed, { integer: true }), scale: numberFlag('scale', args.scale, { above: 0 }) };
    await withDataLock(dataDir, async () => {
      const service = await openService({ dataDir });
      try {
        await backfillSimulator(service, opts, until);
      } finally {
        await service.close();
      }
    });
  },
});
