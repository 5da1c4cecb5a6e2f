import { createConsola } from 'consola';

/**
 * The one logger. Never pass an API key (or anything derived from one other than its public
 * id) to it: a test greps every log line for the keys it created.
 */
export const log = createConsola({
  level: process.env.PERPS_LOG_LEVEL !== undefined ? Number(process.env.PERPS_LOG_LEVEL) : process.env.VITEST ? 1 : 3,
});
