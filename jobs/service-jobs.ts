import { log } from '../server/lib/log.ts';
import type { Service } from '../server/service.ts';
import { compactJournal } from './compaction.ts';
import { refreshPositions } from './position-refresh.ts';
import { refreshRollups } from './rollup-refresh.ts';
import { Scheduler, type JobDefinition } from './scheduler.ts';

/** The jobs by name, with their default schedules (croner patterns with seconds, UTC). */
export const JOB_DEFAULTS = {
  /** re-mark every open position (`poll` snapshots): every 5 minutes, at second 10 */
  'position-refresh': '10 */5 * * * *',
  /** recompute the rollup buckets touched since the last run: every 10 minutes, at second 30 */
  'rollup-refresh': '30 */10 * * * *',
  /** compact closed days (and drop old poll snapshots), merge today's small files: hourly at
   * :17:40, between two position refreshes (which read market-snapshot files) */
  compaction: '40 17 * * * *',
  /** write the derived state's changes into its file (it keeps no WAL, see Database.open):
   * every 10 minutes, at second 50, so a crash costs start-up at most ~10 minutes of catch-up */
  checkpoint: '50 */10 * * * *',
} as const;

export type JobName = keyof typeof JOB_DEFAULTS;
export const JOB_NAMES = Object.keys(JOB_DEFAULTS) as JobName[];

const RUNS: Record<JobName, (service: Service) => Promise<unknown>> = {
  'position-refresh': refreshPositions,
  'rollup-refresh': refreshRollups,
  compaction: (service) => compactJournal(service),
  checkpoint: (service) => service.db.checkpoint(),
};

/** The environment variable that overrides a job's schedule, e.g. PERPS_JOB_ROLLUP_REFRESH. */
export function scheduleEnvName(name: JobName): string {
  return `PERPS_JOB_${name.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * A job's schedule: `PERPS_JOBS=off` turns every schedule off (jobs still run by `trigger`),
 * `PERPS_JOB_<NAME>` overrides one (a croner pattern, or `off`), else the default.
 */
export function scheduleOf(name: JobName, env: NodeJS.ProcessEnv = process.env): string {
  if (env.PERPS_JOBS === 'off') return 'off';
  return env[scheduleEnvName(name)] ?? JOB_DEFAULTS[name];
}

/** A job definition for `service` (no schedule unless given). */
export function jobDefinition(name: JobName, service: Service, schedule = 'off'): JobDefinition {
  return { name, schedule, run: () => RUNS[name](service) };
}

/** Schedules every job of a running service. */
export function startJobs(service: Service, env: NodeJS.ProcessEnv = process.env): Scheduler {
  const scheduler = new Scheduler();
  for (const name of JOB_NAMES) scheduler.add(jobDefinition(name, service, scheduleOf(name, env)));
  log.info(`jobs: ${JOB_NAMES.map((n) => `${n} "${scheduleOf(n, env)}"`).join(', ')}`);
  return scheduler;
}
