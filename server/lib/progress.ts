import { log } from './log.ts';

/**
 * Progress with an ETA for long work (backfill, rebuild): one log line at most every
 * `everyMs`, through consola like every other log line.
 */
export function progress(label: string, total: number, everyMs = 2000) {
  const started = performance.now();
  let lastLog = started;
  return {
    update(done: number, detail = ''): void {
      const now = performance.now();
      if (now - lastLog < everyMs) return;
      lastLog = now;
      const frac = total > 0 ? Math.min(1, done / total) : 1;
      const elapsed = (now - started) / 1000;
      const eta = frac > 0 ? (elapsed / frac) * (1 - frac) : Number.NaN;
      log.info(`${label} ${(frac * 100).toFixed(0)}% · ${elapsed.toFixed(0)} s elapsed · ETA ${Number.isFinite(eta) ? eta.toFixed(0) : '?'} s${detail ? ` · ${detail}` : ''}`);
    },
    /** seconds since start */
    elapsed(): number {
      return (performance.now() - started) / 1000;
    },
  };
}
