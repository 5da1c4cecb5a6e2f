/**
 * `npm run chaos`: the operator's fault run, on loopback only, with bounded loops (not part of
 * `npm test`). Against real server processes on a fresh data directory:
 * 1. kill -9 at random moments of the simulator's backfill, then of its live appends, restarting
 *    each time; then the journal's invariants (server/chaos/invariants.ts);
 * 2. generated bad requests (5xx must be 0), stream clients that never read (RSS stays bounded),
 *    a flood of idle connections and concurrent requests, then `/health`'s latency;
 * 3. a full disk: the data directory copied onto a small tmpfs (root only; skipped otherwise),
 *    filled by a ballast file while live, then freed: `/health` must fail with the reason while
 *    reads are served, ingestion must resume, and the invariants must hold again.
 * After the kills, the journal's fills are compared with an uninterrupted run of the same seed to
 * the same time (server/chaos/uninterrupted.ts), and a few API answers with a recount from the
 * journal (server/chaos/recount.ts).
 * Prints its figures (JSON last) and exits 1 when an invariant or a bound fails.
 *
 * Flags: --scale (0.05) --seed (7) --kills-backfill (6) --kills-live (3) --bad (3000) --slow (20)
 * --idle (2000) --concurrent (500) --disk-full (true).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { HealthBody } from '../http/health.ts';
import { freePort, mib, spawnServer, type ServerChild } from '../bench/server-process.ts';
import { badRequests, connectionFlood, rng, slowConsumers } from './floods.ts';
import { checkJournal, journalHolds, type JournalFigures } from './invariants.ts';
import { apiAgainstRecount } from './recount.ts';
import { compareWithUninterrupted, sameFills } from './uninterrupted.ts';

const { values: flags } = parseArgs({
  options: {
    scale: { type: 'string', default: '0.05' },
    seed: { type: 'string', default: '7' },
    'kills-backfill': { type: 'string', default: '6' },
    'kills-live': { type: 'string', default: '3' },
    bad: { type: 'string', default: '3000' },
    slow: { type: 'string', default: '20' },
    idle: { type: 'string', default: '2000' },
    concurrent: { type: 'string', default: '500' },
    'disk-full': { type: 'string', default: 'true' },
  },
});
const num = (k: keyof typeof flags) => Number(flags[k]);
const r = rng(num('seed'));
const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
const say = (line: string) => process.stdout.write(`chaos: ${line}\n`);

async function health(s: ServerChild): Promise<HealthBody | null> {
  try {
    return (await (await fetch(`${s.url}/health`, { signal: AbortSignal.timeout(5_000) })).json()) as HealthBody;
  } catch {
    return null;
  }
}

async function startServer(dataDir: string): Promise<ServerChild> {
  const port = await freePort();
  return spawnServer({
    name: 'chaos server',
    script: 'server/main/cli.ts',
    port,
    readyPath: '/health',
    timeoutMs: 300_000,
    args: ['start', '--data', dataDir, '--port', String(port), '--source', 'simulate', '--scale', flags.scale!, '--seed', flags.seed!],
    env: { PERPS_ACCESS_LOG: 'off' },
  });
}

/** Waits until the source's phase is `phase` (at most `maxMs`); the last health body. */
async function until(s: ServerChild, ok: (h: HealthBody) => boolean, maxMs: number, what: string): Promise<HealthBody> {
  const deadline = Date.now() + maxMs;
  for (;;) {
    const h = await health(s);
    if (h && ok(h)) return h;
    if (Date.now() > deadline) throw new Error(`chaos: ${what} not reached within ${maxMs / 1000} s (last: ${JSON.stringify(h?.source)})`);
    await sleep(250);
  }
}

async function kill9(s: ServerChild): Promise<void> {
  process.kill(s.pid, 'SIGKILL');
  await s.stop(); // resolves once the killed process has exited
}

const premiumKey = (dataDir: string) => (JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as { plan: string; key: string }[]).find((k) => k.plan === 'premium')!.key;

async function killRun(dataDir: string) {
  const figures = { backfillKills: 0, liveKills: 0, restarts: 0, backfillResumedFrom: [] as (string | null)[] };
  while (figures.backfillKills < num('kills-backfill')) {
    const s = await startServer(dataDir);
    figures.restarts++;
    const h = await until(s, (x) => x.source.phase === 'backfilling' || x.source.phase === 'live', 120_000, 'a backfill or live phase');
    figures.backfillResumedFrom.push(h.source.complete_to);
    if (h.source.phase === 'live') {
      await s.stop();
      break; // the backfill finished before its kills were used up
    }
    // at a random point of the backfill: before its first append, or at a random share of its work
    const target = r() < 0.2 ? 0 : r() * 0.95;
    const killBy = Date.now() + 120_000;
    if (target === 0) await sleep(500 + r() * 2_000);
    else while (((await health(s))?.source.progress ?? 0) < target && Date.now() < killBy) await sleep(100 + r() * 400);
    const now = await health(s);
    await kill9(s);
    if (now?.source.phase === 'backfilling') figures.backfillKills++;
    else figures.liveKills++;
    say(
      `kill -9 #${figures.backfillKills + figures.liveKills} during ${now?.source.phase ?? 'start-up'} (complete to ${now?.source.complete_to ?? '-'}, progress ${now?.source.progress?.toFixed(2) ?? '-'})`,
    );
  }
  let s = await startServer(dataDir);
  figures.restarts++;
  const t0 = performance.now();
  await until(s, (x) => x.source.phase === 'live', 600_000, 'live');
  say(`live after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  while (figures.liveKills < num('kills-live')) {
    await sleep(2_000 + r() * 3_000);
    await kill9(s);
    figures.liveKills++;
    say(`kill -9 #${figures.backfillKills + figures.liveKills} during live appends`);
    s = await startServer(dataDir);
    figures.restarts++;
    await until(s, (x) => x.source.phase === 'live', 600_000, 'live after a kill');
  }
  return { figures, server: s };
}

async function requestFaults(s: ServerChild, key: string) {
  const port = Number(new URL(s.url).port);
  const bad = await badRequests(port, key, num('bad'), num('seed'));
  say(`bad requests: ${bad.sent} sent, ${bad.fivexx} 5xx, ${bad.fourxxWithoutBody} 4xx without the error body, ${bad.noAnswer} unanswered`);
  const slow = await slowConsumers(s.url, key, num('slow'), 10_000, () => mib(s.rss()));
  for (const ws of slow.sockets) ws.terminate();
  const metrics = await (await fetch(`${s.url}/metrics`)).text();
  const dropped = Number(/^perps_stream_dropped\{code="slow_consumer"\} (\d+)/m.exec(metrics)?.[1] ?? NaN);
  const { sockets: _s, ...slowFigures } = slow;
  say(`slow consumers: ${slow.clients}, RSS ${slow.rssBeforeMib} → peak ${slow.rssPeakMib} → ${slow.rssAfterMib} MiB, dropped ${dropped}`);
  const flood = await connectionFlood(port, key, num('idle'), num('concurrent'));
  for (const sock of flood.idleSockets) sock.destroy();
  const { idleSockets: _i, ...floodFigures } = flood;
  say(`flood: ${flood.idleOpened} idle connections + ${flood.concurrent} concurrent requests; /health p50 ${flood.healthMs.p50} ms, p99 ${flood.healthMs.p99} ms`);
  return { bad, slow: { ...slowFigures, droppedByServer: dropped }, flood: floodFigures };
}

/** Copies the stopped data directory onto a tmpfs with little room to spare, fills it while live, frees it. */
async function diskFull(dataDir: string, work: string) {
  const mnt = join(work, 'small-disk');
  mkdirSync(mnt, { recursive: true });
  const usedMib = Math.ceil(Number(execFileSync('du', ['-sm', dataDir]).toString().split('\t')[0]));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${usedMib + 512}m`, 'tmpfs', mnt]);
  try {
    const data = join(mnt, 'data');
    execFileSync('cp', ['-a', dataDir, data]);
    const s = await startServer(data);
    await until(s, (x) => x.source.phase === 'live', 300_000, 'live on the small disk');
    const seqBefore = (await health(s))!.journal.last_seq;
    const ballast = join(mnt, 'ballast');
    const fd = openSync(ballast, 'w');
    const chunk = Buffer.alloc(1 << 20, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch {
      /* ENOSPC: the disk is full */
    } finally {
      closeSync(fd);
    }
    const failing = await until(s, (x) => x.status === 'failing', 60_000, '/health failing on a full disk');
    const read = await fetch(`${s.url}/v1/protocols`, { headers: { 'x-api-key': premiumKey(data) } });
    await read.arrayBuffer();
    const leftovers = execFileSync('find', [join(data, 'journal'), '-name', '.tmp-*'])
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean).length;
    say(`disk full: /health ${failing.status} (${failing.problems.join('; ')}), a read answered ${read.status}, temp files left ${leftovers}`);
    await sleep(3_000);
    rmSync(ballast);
    const t0 = performance.now();
    await until(s, (x) => x.status === 'ok' && x.source.phase === 'live' && x.journal.last_seq > seqBefore, 120_000, 'ingestion resumed after space came back');
    const resumedS = (performance.now() - t0) / 1000;
    await sleep(3_000);
    await s.stop();
    say(`disk full: resumed ${resumedS.toFixed(1)} s after space came back`);
    return { problems: failing.problems, readStatus: read.status, tempFilesWhileFull: leftovers, resumedAfterS: Math.round(resumedS * 10) / 10, journal: await checkJournal(data) };
  } finally {
    execFileSync('umount', [mnt]);
  }
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'perps-chaos-'));
  const dataDir = join(work, 'data');
  const started = performance.now();
  let failed = false;
  try {
    say(`data in ${dataDir}, scale ${flags.scale}, seed ${flags.seed}`);
    const { figures: kills, server } = await killRun(dataDir);
    const requests = await requestFaults(server, premiumKey(dataDir));
    const rssAfterMib = mib(server.rss());
    await server.stop();
    const journal: JournalFigures = await checkJournal(dataDir);
    say(
      `after ${kills.backfillKills + kills.liveKills} kills: ${journal.fills} fills, seq gap-free ${journal.seqGapFree}, duplicate fill keys ${journal.duplicateFillKeys}, duplicate position snapshots ${journal.duplicatePositionSnapshots}, ${journal.parquetFiles} files (${journal.unreadableFiles.length} unreadable), rebuild diff ${JSON.stringify(journal.rebuildDiff)}`,
    );
    const twin = await compareWithUninterrupted(dataDir, work);
    say(
      `uninterrupted run of seed ${flags.seed} to ${twin.completeTo}: ${twin.uninterruptedFills} fills against the killed run's ${twin.killedFills}; only in the killed run ${twin.onlyKilled}, only in the uninterrupted one ${twin.onlyUninterrupted} (seq differs for ${twin.seqDiffers})`,
    );
    const recount = await apiAgainstRecount(dataDir, premiumKey(dataDir));
    for (const c of recount) say(`API against a recount: ${c.what}: ${c.differences.length ? `${c.differences.length} differences, e.g. ${c.differences.slice(0, 3).join('; ')}` : 'equal'}`);
    const canMount = process.getuid?.() === 0 && flags['disk-full'] !== 'false';
    const disk = canMount ? await diskFull(dataDir, work) : null;
    if (!canMount) say('disk full: skipped (needs root to mount a small tmpfs)');
    if (disk)
      say(
        `after the full disk: ${disk.journal.fills} fills, seq gap-free ${disk.journal.seqGapFree}, duplicate position snapshots ${disk.journal.duplicatePositionSnapshots}, rebuild diff ${JSON.stringify(disk.journal.rebuildDiff)}`,
      );
    failed =
      !journalHolds(journal) ||
      !sameFills(twin) ||
      recount.some((c) => c.differences.length > 0) ||
      (disk !== null && (!journalHolds(disk.journal) || disk.tempFilesWhileFull > 0)) ||
      requests.bad.fivexx > 0 ||
      requests.bad.fourxxWithoutBody > 0;
    const seconds = Math.round((performance.now() - started) / 1000);
    say(`${failed ? 'FAILED' : 'passed'} in ${seconds} s`);
    process.stdout.write(`${JSON.stringify({ scale: Number(flags.scale), seed: Number(flags.seed), seconds, kills, journal, uninterrupted: twin, recount, requests, rssAfterMib, disk }, null, 2)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

await main();
