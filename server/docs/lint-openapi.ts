/**
 * `npm run lint:openapi`: lints the OpenAPI document the service serves with Redocly's CLI
 * (recommended rules, server/docs/redocly.yaml). Exits non-zero on any error; warnings are printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentOpenApiDocument } from './openapi-offline.ts';

const CONFIG = join(dirname(fileURLToPath(import.meta.url)), 'redocly.yaml');

/** Runs the lint; returns the CLI's exit status and its output. */
export async function lintOpenApi(): Promise<{ status: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'perps-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(await currentOpenApiDocument(), null, 2));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', file, '--config', CONFIG, '--format', 'stylish'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return { status: run.status ?? 1, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { status, output } = await lintOpenApi();
  process.stdout.write(output);
  process.exit(status);
}
