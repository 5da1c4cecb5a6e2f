import { describe, expect, it, vi } from 'vitest';
import { Scheduler } from '../../jobs/scheduler.ts';
import { JOB_DEFAULTS, scheduleOf } from '../../jobs/service-jobs.ts';
import { log } from '../../server/lib/log.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduler', () => {
  it('runs on schedule without overlapping, logs a failure and goes on, and stop() waits for the run in flight', async () => {
    const errors = vi.spyOn(log, 'error').mockImplementation(() => {});
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const scheduler = new Scheduler();
    scheduler.add({
      name: 'slow',
      schedule: '* * * * * *', // every second; each run takes 1.5 s
      run: async () => {
        runs++;
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(1500);
        active--;
        if (runs === 1) throw new Error('boom');
      },
    });
    await sleep(4200);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(maxActive).toBe(1);
    expect(errors).toHaveBeenCalledWith('job slow failed', expect.any(Error));
    await scheduler.stop();
    expect(active).toBe(0); // stop() returned only after the run in flight finished
    const after = runs;
    await sleep(1200);
    expect(runs).toBe(after); // and nothing runs once stopped
    errors.mockRestore();
  }, 15_000);

  it('trigger() runs now, after a run in flight, and hands back the result or the error', async () => {
    const errors = vi.spyOn(log, 'error').mockImplementation(() => {});
    const order: string[] = [];
    let n = 0;
    const scheduler = new Scheduler();
    const job = scheduler.add({
      name: 'manual',
      schedule: 'off',
      run: async () => {
        const me = ++n;
        order.push(`start ${me}`);
        await sleep(50);
        order.push(`end ${me}`);
        if (me === 3) throw new Error('third fails');
        return me;
      },
    });
    const [a, b] = await Promise.all([job.trigger(), job.trigger()]);
    expect([a, b]).toEqual([1, 2]);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    await expect(job.trigger()).rejects.toThrow('third fails');
    expect(errors).toHaveBeenCalledTimes(1);
    await scheduler.stop();
    await expect(job.trigger()).rejects.toThrow('stopped');
    errors.mockRestore();
  });

  it('schedules are configurable per job and can all be turned off', () => {
    expect(scheduleOf('compaction', {})).toBe(JOB_DEFAULTS.compaction);
    expect(scheduleOf('rollup-refresh', { PERPS_JOB_ROLLUP_REFRESH: '0 0 * * * *' })).toBe('0 0 * * * *');
    expect(scheduleOf('position-refresh', { PERPS_JOBS: 'off', PERPS_JOB_POSITION_REFRESH: '* * * * * *' })).toBe('off');
  });
});
