import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { log } from '../../lib/log.ts';
import { openService } from '../../service.ts';
import { withDataLock } from '../startup-checks.ts';
import { JOB_NAMES, jobDefinition, type JobName } from '../../../jobs/service-jobs.ts';
import { Scheduler } from '../../../jobs/scheduler.ts';

/** `jobs run <name>`: runs one scheduled job now on a stopped server's data directory. */
export const jobsCommand = defineCommand({
  meta: { name: 'jobs', description: `Run a scheduled job now (server stopped): ${JOB_NAMES.join(' | ')}` },
  subCommands: {
    run: defineCommand({
      meta: { name: 'run', description: 'Run one job now and print its result' },
      args: {
        name: { type: 'positional', required: true, description: JOB_NAMES.join(' | ') },
        data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' },
      },
      async run({ args }) {
        const name = args.name as JobName;
        if (!JOB_NAMES.includes(name)) throw new Error(`unknown job "${args.name}": use ${JOB_NAMES.join(', ')}`);
        const dataDir = args.data ?? configFromEnv().dataDir;
        await withDataLock(dataDir, async () => {
          const service = await openService({ dataDir });
          const scheduler = new Scheduler();
          try {
            const result = await scheduler.add(jobDefinition(name, service)).trigger();
            log.success(`job ${name}: ${JSON.stringify(result)}`);
          } finally {
            await scheduler.stop();
            await service.close();
          }
        });
      },
    }),
  },
});
