/**
 * Lengths of time in milliseconds, the unit of every epoch time the service computes with (UTC has
 * no leap seconds in epoch time, so a day is always 86,400,000 ms). One copy, imported everywhere.
 */
export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
/** the finest history bucket and the step of the derived 5-minute tables */
export const FIVE_MINUTES_MS = 5 * MINUTE_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
