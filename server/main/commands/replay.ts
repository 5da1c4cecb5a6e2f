import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { log } from '../../lib/log.ts';
import { openService } from '../../service.ts';
import { withDataLock } from '../startup-checks.ts';
import { parseSpeed, runReplay } from '../../sources/replay/source.ts';

/**
 * `replay --from <dir>`: re-streams an existing journal into the data directory through the
 * append path (no server), then exits. Ctrl-C / SIGTERM stop it after the append in flight; run
 * it again to resume.
 */
export const replayCommand = defineCommand({
  meta: { name: 'replay', description: 'Re-stream an existing journal through the append path at speed × N (server stopped)' },
  args: {
    from: { type: 'string', required: true, description: 'the journal to replay: a data directory, a journal directory or a copied partition set' },
    data: { type: 'string', description: 'target data directory (default $PERPS_DATA_DIR or ./data)' },
    speed: { type: 'string', default: 'max', description: 'source time × N, or "max" (default)' },
  },
  async run({ args }) {
    const speed = parseSpeed(args.speed);
    const dataDir = args.data ?? configFromEnv().dataDir;
    await withDataLock(dataDir, async () => {
      const service = await openService({ dataDir });
      const abort = new AbortController();
      const stop = (signal: string) => {
        log.info(`${signal}: stopping the replay after the append in flight`);
        abort.abort();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
      try {
        const r = await runReplay(service, { from: args.from, speed, signal: abort.signal });
        if (!r.done) log.info(`replay: stopped after ${r.fills} fills; run it again to resume`);
      } finally {
        await service.close();
      }
    });
  },
});
