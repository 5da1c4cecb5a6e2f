import { Cron } from 'croner';
import { log } from '../server/lib/log.ts';

/** One scheduled job: a name, a cron pattern (UTC, with seconds allowed) and what it does. */
export interface JobDefinition<R = unknown> {
  name: string;
  /** croner pattern, e.g. `0 *\/5 * * * *` (every 5 minutes); `off` disables the schedule */
  schedule: string;
  run(): Promise<R>;
}

/** A job under the scheduler: runs on its schedule, or now through {@link Job.trigger}. */
export interface Job<R = unknown> {
  readonly name: string;
  readonly schedule: string;
  /** Runs the job now (after a run in flight, if any, finishes) and resolves with its result. */
  trigger(): Promise<R>;
  /** the run in flight, if any */
  busy(): boolean;
  /** Stops the schedule and waits for a run in flight. */
  stop(): Promise<void>;
}

/**
 * Wraps a definition: runs never overlap (croner's `protect` skips a tick while the previous
 * scheduled run is busy, and a tick that finds a manual run in flight is skipped too), a failed
 * scheduled run is logged and the schedule goes on, a failed `trigger()` is logged and rejects.
 */
function scheduleJob<R>(def: JobDefinition<R>): Job<R> {
  let running: Promise<R> | undefined;
  let stopped = false;

  const execute = (): Promise<R> => {
    const started = performance.now();
    const run = (async () => {
      try {
        const result = await def.run();
        log.debug(`job ${def.name}: done in ${(performance.now() - started).toFixed(0)} ms`);
        return result;
      } catch (err) {
        log.error(`job ${def.name} failed`, err);
        throw err;
      }
    })();
    running = run;
    void run
      .catch(() => undefined)
      .finally(() => {
        if (running === run) running = undefined;
      });
    return run;
  };

  const cron =
    def.schedule === 'off'
      ? undefined
      : new Cron(def.schedule, { name: `perps-${def.name}`, timezone: 'UTC', protect: true, unref: true }, async () => {
          if (stopped || running) return; // a manual run is in flight: this tick is skipped
          await execute().catch(() => undefined); // already logged
        });

  return {
    name: def.name,
    schedule: def.schedule,
    async trigger() {
      if (stopped) throw new Error(`job ${def.name} is stopped`);
      while (running) await running.catch(() => undefined);
      return execute();
    },
    busy: () => running !== undefined,
    async stop() {
      stopped = true;
      cron?.stop();
      while (running) await running.catch(() => undefined);
    },
  };
}

/** The set of jobs of one running service. */
export class Scheduler {
  private readonly jobs = new Map<string, Job>();

  /** Adds (and schedules) a job. */
  add<R>(def: JobDefinition<R>): Job<R> {
    if (this.jobs.has(def.name)) throw new Error(`job ${def.name} is already scheduled`);
    const job = scheduleJob(def);
    this.jobs.set(def.name, job as Job);
    if (def.schedule !== 'off') log.debug(`job ${def.name}: scheduled "${def.schedule}" (UTC)`);
    return job;
  }

  get(name: string): Job | undefined {
    return this.jobs.get(name);
  }

  names(): string[] {
    return [...this.jobs.keys()];
  }

  /** Stops every schedule and waits for the runs in flight. */
  async stop(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((j) => j.stop()));
  }
}
