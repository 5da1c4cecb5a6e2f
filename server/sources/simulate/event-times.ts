/** Where in a simulated minute events land (server/sources/simulate/simulator.ts). */
import { MINUTE_MS } from '../../lib/time.ts';

/** The start of `t`'s minute. */
export const floorMinute = (t: number): number => Math.floor(t / MINUTE_MS) * MINUTE_MS;
/** the keeper's liquidations land at second 1 of the minute, trader fills at seconds 2..59 */
export const KEEPER_OFFSET_MS = 1_000;

/** Snaps a time to a whole second within seconds 2..59 of its minute (never earlier than `t`'s second). */
export function eventTime(t: number): number {
  const m = floorMinute(t);
  return m + Math.min(59, Math.max(2, Math.floor((t - m) / 1_000))) * 1_000;
}
