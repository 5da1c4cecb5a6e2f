import { appendFileSync } from 'node:fs';
import { formatWithOptions } from 'node:util';
import { createConsola, type ConsolaReporter, type LogObject } from 'consola';

/** Console level: PERPS_LOG_LEVEL (consola: 0 silent … 3 info … 5 trace); errors only in tests. */
const consoleLevel = process.env.PERPS_LOG_LEVEL !== undefined ? Number(process.env.PERPS_LOG_LEVEL) : process.env.VITEST ? 1 : 3;
/** With PERPS_LOG_FILE set, every line of every level is also appended there (audits, tests). */
const logFile = process.env.PERPS_LOG_FILE;

/**
 * The one logger. Never pass an API key (or anything derived from one other than its public
 * id) to it: a test greps every log line written during the test run (PERPS_LOG_FILE, trace
 * level) for every key created in it.
 */
export const log = createConsola({ level: logFile ? 5 : consoleLevel });

if (logFile) {
  const consoleReporters = [...log.options.reporters];
  const toFile: ConsolaReporter = {
    log(entry: LogObject, ctx) {
      const text = formatWithOptions({ depth: 5 }, ...entry.args);
      appendFileSync(logFile, `${entry.date.toISOString()} ${entry.type} ${entry.tag ?? ''} ${text}\n`);
      if (entry.level <= consoleLevel) for (const r of consoleReporters) r.log(entry, ctx);
    },
  };
  log.setReporters([toFile]);
}
