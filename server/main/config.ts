import { resolve } from 'node:path';

/** Runtime settings, from the environment (CLI flags override them in server/main/cli.ts). */
export interface Config {
  /** data directory: journal, derived state, keys (default ./data) */
  dataDir: string;
  /** `$PORT` as given (default 8080): `start` checks it, so a bad one fails only the command that listens */
  port: string;
  /** bind address; 127.0.0.1 by default so a fresh start is not exposed to the network */
  host: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    dataDir: resolve(env.PERPS_DATA_DIR ?? './data'),
    port: env.PORT ?? '8080',
    host: env.HOST ?? '127.0.0.1',
  };
}
