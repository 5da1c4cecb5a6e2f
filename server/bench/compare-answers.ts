/**
 * Do two versions of the service give the same answers? `npm run compare:answers -- ...` sends the same
 * varied requests (server/bench/answer-requests.ts) to every REST route of two servers and compares
 * them byte for byte (server/bench/answer-compare.ts); exits 1 on any difference.
 *
 * - Two running servers: `--a URL --b URL --key KEY` (or `--key-a`, `--key-b`).
 * - Two checkouts on one data directory: `--data DIR --base REF` serves a copy of DIR with the code of
 *   git ref REF (a temporary worktree, this checkout's node_modules linked in; `--base-dir PATH`: an
 *   existing checkout instead) and another copy with this working tree, each as `npm run bench` starts
 *   its server (server/bench/server-process.ts), first with the response cache on (every request
 *   sent twice: computed, then from the cache), then with it off (`PERPS_CACHE=0`).
 *   `--copies A,B` uses two copies made beforehand (kept); otherwise they are made and deleted.
 *
 * `--requests N` (default 2400) requests are spread over the routes, plus the cursor pages followed;
 * `--seed` changes the draw.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KeyStore } from '../keys/store.ts';
import { log } from '../lib/log.ts';
import { progress } from '../lib/progress.ts';
import { compareAnswers, differenceCount, formatTallies, PER_REQUEST_HEADERS, type Side } from './answer-compare.ts';
import { answerPool, jsonGetter } from './answer-pool.ts';
import { answerRequests, restRoutesOf, type AnswerRequest } from './answer-requests.ts';
import { freePort, spawnServer, untilQuiet, untilWarm, type ServerChild } from './server-process.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    key: { type: 'string' },
    'key-a': { type: 'string' },
    'key-b': { type: 'string' },
    data: { type: 'string' },
    base: { type: 'string' },
    'base-dir': { type: 'string' },
    copies: { type: 'string' },
    requests: { type: 'string', default: '2400' },
    seed: { type: 'string', default: '7' },
  },
});
const say = (s: string): void => void process.stdout.write(`${s}\n`);

/** The requests for two sides: the union of both documents' routes, parameters drawn through side A. */
async function requestsFor(a: Side, b: Side): Promise<AnswerRequest[]> {
  const docs = await Promise.all([a, b].map(async (s) => (await fetch(`${s.url}/v1/openapi.json`)).json()));
  const routes = new Map(docs.flatMap((doc) => restRoutesOf(doc)).map((r) => [r.path, r]));
  const pool = await answerPool(jsonGetter(a.url, a.key), [...routes.keys()]);
  const requests = answerRequests([...routes.values()], pool, Number(args.requests), Number(args.seed));
  say(
    `${requests.length} requests over ${routes.size} routes; pool: ${Object.entries(pool)
      .map(([p, x]) => `${p} ${x.markets.length} markets, ${x.addresses.length} addresses, ${x.closed.length} closed and ${x.open.length} open positions`)
      .join('; ')}`,
  );
  return requests;
}

/** Compares `a` and `b` over `requests` once per pass title; returns the differences. */
async function comparePasses(a: Side, b: Side, requests: AnswerRequest[], titles: string[]): Promise<number> {
  let differences = 0;
  for (const title of titles) {
    const bar = progress(title, requests.length);
    const tallies = await compareAnswers(a, b, requests, { onProgress: (done) => bar.update(done) });
    say('');
    for (const line of formatTallies(`${title} (${bar.elapsed().toFixed(0)} s)`, tallies)) say(line);
    differences += differenceCount(tallies);
  }
  return differences;
}

/** A checkout of `ref` in a temporary worktree with this checkout's node_modules, and how to remove it. */
function worktreeOf(ref: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'compare-answers-base-'));
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { dir, remove: () => execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' }) };
}

/** Starts the API server of checkout `code` on `dataDir` (as the bench does) and waits until its read side is warm. */
async function serve(code: string, dataDir: string, env: NodeJS.ProcessEnv, name: string): Promise<ServerChild> {
  const port = await freePort();
  // the CLI's place in a checkout from before the read side moved into layers, or after
  const cli = ['server/main/cli.ts', 'server/cli.ts'].find((p) => existsSync(join(code, p))) ?? 'server/main/cli.ts';
  const child = await spawnServer({
    name,
    script: join(code, cli),
    port,
    readyPath: '/v1/openapi.json',
    env,
    args: ['start', '--data', dataDir, '--port', String(port), '--source', 'none'],
    // a copy of the journal whose derived state this code rebuilds takes minutes
    timeoutMs: 900_000,
  });
  // a checkout without /health's read_side: until its CPU goes quiet instead
  const waited = await untilWarm(child).catch(() => untilQuiet(child));
  log.info(`${name} warm after ${waited.toFixed(0)} s`);
  return child;
}

/** The two-checkout run (see the file comment); returns the differences. */
async function compareCheckouts(data: string, base: string): Promise<number> {
  const made = !args.copies;
  const copies =
    args.copies?.split(',') ??
    [0, 1].map((i) => {
      const dir = mkdtempSync(join(tmpdir(), `compare-answers-data-${i}-`));
      log.info(`copying ${data} to ${dir}`);
      cpSync(data, dir, { recursive: true });
      rmSync(join(dir, 'server.lock'), { force: true });
      return dir;
    });
  const tree = args['base-dir'] ? null : worktreeOf(base);
  const baseDir = args['base-dir'] ?? tree!.dir;
  try {
    const keys = copies.map((dir) => KeyStore.open(dir!).create({ plan: 'internal', label: 'compare-answers' }).key);
    let differences = 0;
    let requests: AnswerRequest[] | null = null;
    for (const [cache, env] of [
      ['on', {}],
      ['off', { PERPS_CACHE: '0' }],
    ] as const) {
      const started = await Promise.allSettled([serve(baseDir, copies[0]!, env, `A (${base})`), serve(ROOT, copies[1]!, env, 'B (this checkout)')]);
      const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      const failed = started.find((s) => s.status === 'rejected');
      if (failed) {
        await Promise.all(servers.map((s) => s.stop()));
        throw failed.reason;
      }
      try {
        const [a, b] = servers.map((s, i) => ({ url: s.url, key: keys[i]! }));
        requests ??= await requestsFor(a!, b!);
        const titles = cache === 'on' ? ['response cache on, first pass', 'response cache on, repeated (answers from the cache)'] : ['response cache off'];
        differences += await comparePasses(
          a!,
          b!,
          requests,
          titles.map((t) => `A = ${base}, B = this checkout: ${t}`),
        );
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
    }
    return differences;
  } finally {
    tree?.remove();
    if (made) for (const dir of copies) rmSync(dir!, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  say(`headers not compared (per request by nature): ${PER_REQUEST_HEADERS.join(', ')}`);
  if (args.a && args.b) {
    const a = { url: args.a, key: args['key-a'] ?? args.key ?? '' };
    const b = { url: args.b, key: args['key-b'] ?? args.key ?? '' };
    return comparePasses(a, b, await requestsFor(a, b), [`A = ${a.url}, B = ${b.url}`]);
  }
  if (args.data && (args.base || args['base-dir'])) {
    if (!existsSync(args.data)) throw new Error(`no data directory ${args.data}`);
    return compareCheckouts(args.data, args.base ?? args['base-dir']!);
  }
  say('usage: compare:answers -- --a URL --b URL --key KEY | --data DIR --base REF [--base-dir PATH] [--copies A,B] [--requests N] [--seed S]');
  process.exit(2);
}

const differences = await main();
say(differences ? `${differences} difference(s)` : 'all answers equal');
process.exit(differences ? 1 : 0);
