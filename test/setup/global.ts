import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Key hygiene over the whole test run: every log line, of every level and every process (the
 * workers and the CLI children they spawn inherit PERPS_LOG_FILE), is written to one file, and
 * every key created in a worker is recorded (test/setup/record-keys.ts). At the end, no key and
 * no key's secret part may appear in any line; otherwise the run fails.
 */
export default function setup(): () => void {
  // vitest calls a global setup once for the root config and once per project of
  // vitest.config.ts, all in this process: the first call sets the audit up, the others share it
  const state = globalThis as { perpsAuditWired?: boolean };
  if (state.perpsAuditWired) return () => {};
  state.perpsAuditWired = true;
  const dir = mkdtempSync(join(tmpdir(), 'perps-audit-'));
  process.env.PERPS_LOG_FILE = join(dir, 'log.txt');
  process.env.PERPS_AUDIT_DIR = dir;
  return () => {
    const lines = existsSync(join(dir, 'log.txt')) ? readFileSync(join(dir, 'log.txt'), 'utf8').split('\n') : [];
    const keys = readdirSync(dir)
      .filter((f) => f.startsWith('keys-'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
    // a recorded key or its secret part, or anything of the key format (keys created by child
    // processes, e.g. the CLI's, are not hashed in a worker and so not recorded)
    const wired = existsSync(join(dir, 'wired'));
    const leaks = lines.filter((line) => /pa_[a-z0-9]{8}_[A-Za-z0-9]{32}/.test(line) || keys.some((k) => line.includes(k.slice(12))));
    rmSync(dir, { recursive: true, force: true });
    // vitest reports an error thrown here but keeps exit code 0: set the exit code as well
    const fail = (message: string): never => {
      process.exitCode = 1;
      throw new Error(message);
    };
    if (!wired) fail('key audit: the key recorder (test/setup/record-keys.ts) never ran; the audit is not wired');
    if (leaks.length) fail(`key audit: ${leaks.length} log line(s) contain an API key, e.g. ${leaks[0]!.slice(0, 40)}…`);
    process.stdout.write(`key audit: ${keys.length} keys checked against ${lines.length} log lines: none leaked\n`);
  };
}
