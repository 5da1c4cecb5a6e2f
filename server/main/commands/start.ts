import { defineCommand } from 'citty';
import { configFromEnv } from '../config.ts';
import { numberFlag } from './flags.ts';
import { applyHeapGrowth } from './heap-growth.ts';
import { startServer } from '../serve.ts';
import { metricsModeOf } from '../../http/metrics.ts';
import { ensureDemoKeys } from '../../keys/demo.ts';
import { KeyStore } from '../../keys/store.ts';
import { openLimits } from '../../limits/gate.ts';
import { log } from '../../lib/log.ts';
import { tryThenRetry } from '../../lib/retry.ts';
import { reasonOf } from '../../ingest/append-retry.ts';
import { isMemoryLimit } from '../../db/memory-limit.ts';
import { openService, type Service } from '../../service.ts';
import { runShutdown } from '../shutdown.ts';
import { acquireDataLock, checkPortFree, checkSourceReachable, plainLockError } from '../startup-checks.ts';
import { parseSpeed, startReplay } from '../../sources/replay/source.ts';
import { startJobs } from '../../../jobs/service-jobs.ts';
import { startLiveSimulation } from '../../sources/simulate/live.ts';
import { parseFrom, startSolanaSource, type SolanaSourceOptions } from '../../sources/solana/indexer.ts';
import { checkRpcUrl } from '../../sources/solana/rpc.ts';
import { backfillSimulator, simulatedTo, type SimulateSourceOptions } from '../../sources/simulate/source.ts';

interface Feed {
  stop(): Promise<void>;
}

/**
 * A simulator at most this far behind now (a restart) catches up under the serving memory limit, as a
 * server would run anyway: under the bulk one, a restart's catch-up takes the process well past its
 * serving RSS, and the serving limit costs a catch-up little (docs/performance.md, "Restart
 * catch-up memory").
 */
const RESTART_GAP_MS = 24 * 3_600_000;

/**
 * The simulate source behind a running server: backfill to now (each append is queryable as it
 * lands), then live. `stop()` ends the backfill at its next append, or the live loop.
 */
function feedFromSimulator(service: Service, opts: SimulateSourceOptions, liveEveryMs: number, releaseReadBuilds: () => void): Feed {
  const abort = new AbortController();
  let live: Feed | undefined;
  const behind = simulatedTo(service);
  const restart = behind !== undefined && Date.now() - behind <= RESTART_GAP_MS;
  const backfill = (restart ? settleMemory(service) : Promise.resolve()).then(() => backfillSimulator(service, opts, Date.now(), abort.signal));
  const settled = settleAfter(service, backfill, releaseReadBuilds, () => abort.signal.aborted, !restart);
  settled.catch(() => undefined); // a failed backfill is logged below
  const running = (async () => {
    const sim = await backfill;
    if (abort.signal.aborted) return;
    await settled;
    live = startLiveSimulation(service, sim, opts, liveEveryMs);
  })().catch((err: unknown) => {
    service.source.set('stopped', { reason: reasonOf(err) });
    log.error('simulate: source stopped', err);
  });
  return {
    async stop() {
      abort.abort();
      await running;
      await live?.stop();
    },
  };
}

/**
 * The solana source behind a running server. A source that cannot start (its markets or token
 * decimals unreadable, a data directory of simulated data) calls `fatal` with the reason: the
 * server then stops with exit status 1 rather than serve a journal nothing feeds. Outages after
 * start-up are retried inside the source. `stop()` ends backfill or follow.
 */
function feedFromSolana(service: Service, opts: SolanaSourceOptions, releaseReadBuilds: () => void, fatal: (reason: string) => void): Feed {
  const feed = startSolanaSource(service, opts);
  settleAfter(service, feed.backfilled, releaseReadBuilds).catch((err: unknown) => fatal(`solana: the source cannot start: ${(err as Error).message}`));
  return feed;
}

/**
 * Lowers DuckDB's memory limit to the serving one (PERPS_DUCKDB_SERVE_MEMORY, default 640MB) once
 * the bulk work (start-up catch-up, a source's first backfill) is done: that work is faster under
 * the larger PERPS_DUCKDB_MEMORY (docs/performance.md, "Restart catch-up memory"), while queries
 * keep the process within its 1.5 GiB target only with a smaller buffer cache.
 */
async function settleMemory(service: Service): Promise<void> {
  const limit = process.env.PERPS_DUCKDB_SERVE_MEMORY ?? '640MB';
  if (!isMemoryLimit(limit)) {
    log.warn(`PERPS_DUCKDB_SERVE_MEMORY: expected e.g. 640MB or 1GiB, got "${limit}"; keeping the build limit`);
    return;
  }
  // refused while DuckDB cannot free that much yet (a backfill's changes not yet checkpointed):
  // tried again in the background until it can (the checkpoint job runs every 10 minutes)
  await tryThenRetry(() => service.db.setMemoryLimit(limit), {
    what: `DuckDB memory limit to ${limit} (PERPS_DUCKDB_SERVE_MEMORY)`,
    everyMs: 15_000,
    attempts: 60,
    done: () => log.info(`DuckDB memory limit now ${limit} (serving)`),
    onClose: (stop) => service.db.onClose(stop),
  });
}

/**
 * Lowers the memory limit once a source's `backfilled` settles (unless `stopped`, or `lower` is
 * false: already lowered), then `release`s the heavy read-side builds held since start
 * (Database.holdReadBuilds): a refused limit, retried in the background, does not hold them
 * longer, since the backfill no longer competes with them.
 */
function settleAfter(service: Service, backfilled: Promise<unknown>, release: () => void, stopped = () => false, lower = true): Promise<void> {
  // a backfill ended by shutdown leaves the limit alone (the database is closing)
  return backfilled.then(() => (stopped() || !lower ? undefined : settleMemory(service))).finally(release);
}

/** `start`: open the data directory, serve the API, and keep the journal fed from the source. */
export const startCommand = defineCommand({
  meta: { name: 'start', description: 'Start the service (default: simulated demo data, demo keys, 127.0.0.1:8080)' },
  args: {
    data: { type: 'string', description: 'data directory (default $PERPS_DATA_DIR or ./data)' },
    port: { type: 'string', description: 'port (default $PORT or 8080)' },
    host: { type: 'string', description: 'bind address (default $HOST or 127.0.0.1)' },
    source: { type: 'string', default: 'simulate', description: 'simulate | solana | replay | none' },
    rpc: { type: 'string', description: 'solana: JSON-RPC URL; prefer $SOLANA_RPC_URL (a key in the URL is then never echoed)' },
    from: {
      type: 'string',
      description: 'solana: backfill start, a slot or a date (default 2025-03-12); replay: the journal to re-stream (a data directory or a copied partition set)',
    },
    'rpc-concurrency': { type: 'string', default: '8', description: 'solana: RPC requests in flight at most' },
    'snapshot-every': { type: 'string', default: '60', description: 'solana: seconds between market snapshots from accounts (0 = none)' },
    'positions-every': { type: 'string', default: '900', description: 'solana: seconds between position polls from accounts' },
    speed: { type: 'string', default: '1', description: 'replay: source time × N, or "max"' },
    seed: { type: 'string', default: '42', description: 'simulator seed' },
    scale: { type: 'string', default: '1', description: 'simulator scale (10 → ~10x fills)' },
    'live-every': { type: 'string', default: '1', description: 'seconds between live simulator appends' },
  },
  async run({ args }) {
    applyHeapGrowth();
    if (!['simulate', 'solana', 'replay', 'none'].includes(args.source)) {
      throw new Error(`unknown source "${args.source}": use simulate, solana, replay or none`);
    }
    const rpcUrl = args.rpc ?? process.env.SOLANA_RPC_URL;
    if (args.source === 'solana' && !rpcUrl) throw new Error('--source solana needs the RPC URL in SOLANA_RPC_URL');
    if (args.source === 'solana') checkRpcUrl(rpcUrl!);
    if (args.source === 'replay' && !args.from) throw new Error('--source replay needs --from <journal directory>');
    // a bad --from or --speed fails before anything starts
    const from = args.source === 'solana' ? parseFrom(args.from) : undefined;
    const speed = parseSpeed(args.speed);
    const env = configFromEnv();
    const metricsMode = metricsModeOf(process.env.PERPS_METRICS);
    const port = numberFlag(args.port === undefined ? 'port (or $PORT)' : 'port', args.port ?? env.port, { integer: true, min: 0, max: 65_535 });
    const simulator = { seed: numberFlag('seed', args.seed, { integer: true }), scale: numberFlag('scale', args.scale, { above: 0 }) };
    const liveEveryMs = numberFlag('live-every', args['live-every'], { above: 0 }) * 1000;
    const rpcConcurrency = numberFlag('rpc-concurrency', args['rpc-concurrency'], { integer: true, min: 1 });
    const snapshotEveryMs = numberFlag('snapshot-every', args['snapshot-every'], { min: 0 }) * 1000;
    const positionsEveryMs = numberFlag('positions-every', args['positions-every'], { above: 0 }) * 1000;
    const dataDir = args.data ?? env.dataDir;
    const hostname = args.host ?? env.host;
    const started = performance.now();
    // before any file is written: the port, the data directory's lock, the source
    await checkPortFree(hostname, port);
    await checkSourceReachable(args.source, { rpcUrl, from: args.from });
    const unlock = acquireDataLock(dataDir);
    // the bulk work of a serving process (catch-up, the demo backfill) under 1GB, not the bulk
    // commands' 2GB: beside serving, DuckDB's cache of written blocks must not take the RSS budget
    // (docs/operations.md, "Memory")
    process.env.PERPS_DUCKDB_MEMORY ??= '1GB';
    const service = await openService({ dataDir }).catch((err: unknown) => {
      unlock();
      throw plainLockError(err, dataDir);
    });
    const keys = KeyStore.open(dataDir);
    const limits = openLimits(dataDir);
    // provenance on every answer from the first one (X-Data-Source, /health, MCP, OpenAPI)
    service.source.setSource(args.source === 'simulate' ? 'simulated' : args.source === 'solana' ? 'solana' : args.source === 'replay' ? 'replay' : 'none');
    // before the app starts its read indexes: a backfilling source holds their heavy builds
    const releaseReadBuilds = args.source === 'simulate' || args.source === 'solana' ? service.db.holdReadBuilds() : () => undefined;
    const server = await startServer({
      service,
      keys,
      limits,
      port,
      hostname,
      metrics: metricsMode,
      accessLog: process.env.PERPS_ACCESS_LOG ?? 'stdout',
    });
    ensureDemoKeys(keys); // once the port listens: a start that cannot serve creates no keys
    log.ready(`serving ${server.url} (${((performance.now() - started) / 1000).toFixed(1)} s after start); data in ${dataDir}`);

    let onFatal = (reason: string): void => {
      log.error(reason);
      process.exitCode = 1;
    };
    const feed =
      args.source === 'simulate'
        ? feedFromSimulator(service, simulator, liveEveryMs, releaseReadBuilds)
        : args.source === 'solana'
          ? feedFromSolana(service, { url: rpcUrl!, from, concurrency: rpcConcurrency, snapshotEveryMs, positionsEveryMs }, releaseReadBuilds, (reason) => onFatal(reason))
          : args.source === 'replay'
            ? startReplay(service, { from: args.from!, speed })
            : undefined;
    // no backfill phase to wait for (a replay at --speed max loads under the serving limit)
    if (args.source === 'none' || args.source === 'replay') await settleMemory(service);
    const jobs = startJobs(service);

    let stopping = false;
    const shutdown = async (signal: string, code = 0) => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal}: stopping`);
      // stop accepting; requests in flight finish
      const httpClosed = server.stopAccepting().catch((err: unknown) => log.warn('shutdown: http server close', err));
      const ok = await runShutdown([
        ['source', () => feed?.stop()], // the append in flight completes: its checkpoint is on disk
        ['sockets', () => server.stream.closeAll()], // WebSocket clients get 1001
        ['http', () => Promise.race([httpClosed, new Promise((r) => setTimeout(r, 5000).unref())]).then(() => server.close())],
        ['jobs', () => jobs.stop()], // waits for a run in flight
        ['limits', () => limits.close()],
        ['database', () => service.close()],
        ['lock', async () => unlock()],
      ]);
      log.info(`${signal}: stopped`);
      process.exit(ok ? code : 1);
    };
    onFatal = (reason) => {
      log.error(reason);
      void shutdown('source failed', 1);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
  },
});
