/**
 * `GET /health`: the operator's probe (load balancers, container health checks, uptime alerts).
 * Outside `/v1` and the published contract: no key, no credits, no rate limit, never cached, not
 * in the OpenAPI document or MCP. It answers from the same database the API reads, so a stuck
 * connection pool or a broken derived state shows here rather than only on the next API call.
 *
 * - 200 `status: "ok"`: the database answered within {@link PROBE_TIMEOUT_MS} and the append path
 *   takes appends.
 * - 503 `status: "failing"`, with `problems`: the database did not answer (or failed), the
 *   append path stopped after a failure it could not repair (server/ingest/append.ts), or the
 *   source is retrying (e.g. a full disk) or stopped; reads go on being served meanwhile.
 *
 * The body also says how fresh the data is (the journal's last seq, the derived state's, and the
 * time of the newest fill) and when this process last committed an append, so an alert can tell
 * "up but stale" (a source that stopped) from "down". Being unauthenticated, it names problems
 * without their details (paths, SQL): those go to the log.
 */
import type { H3 } from 'h3';
import { isoFromMs } from '../db/values.ts';
import { gcPauses, type GcPauses } from '../lib/gc-pauses.ts';
import { API_VERSION, jsonAnswer, stageHeader } from './answer-headers.ts';
import { isRead, methodNotAllowed } from './errors.ts';
import { log } from '../lib/log.ts';
import type { Service } from '../service.ts';
import type { ResponseCache } from '../cache/response-cache.ts';

export const HEALTH_PATH = '/health';

/** How long the database probe may take before the service counts as failing. */
export const PROBE_TIMEOUT_MS = 2_000;

/** The answer's body (the operators' documentation describes each field). */
export interface HealthBody {
  status: 'ok' | 'failing';
  /** which source feeds the journal: simulated (synthetic data), solana (the chain), replay (a copied journal), none */
  data_source: 'simulated' | 'solana' | 'replay' | 'none';
  /** what is wrong, when failing */
  problems: string[];
  version: string;
  uptime_s: number;
  journal: { last_seq: number };
  derived: { seq: number | null; last_fill_time: string | null };
  append: { last_commit_at: string | null; stopped: boolean };
  /** the response cache since start (null when the app has none or it is off): answers it served,
   * answers computed, entries appends kept (server/cache/footprint.ts), entries held now */
  cache: { hits: number; misses: number; kept_across_appends: number; entries: number } | null;
  /** `warming`: the in-memory read paths are still loading or being rebuilt (the working sets of
   * liquidation search, the history routes, the accounts and the open positions, the history read
   * index, the lifecycle store), so some answers come from slower SQL meanwhile (open-position
   * searches wait for their set instead); null when the app did not say */
  read_side: { warming: boolean } | null;
  /** what the process's memory is now, in MiB: its RSS, V8's heap in use, memory outside the heap
   * that JS objects hold (Buffers, typed arrays), and DuckDB's buffer manager (null when the probe
   * failed); the rest of the RSS is code, thread stacks and the allocator's free lists */
  memory: { rss_mib: number; js_heap_mib: number; js_external_mib: number; duckdb_mib: number | null };
  /** what the source feeding the journal is doing (server/sources/source-status.ts): its phase
   * since when, the backfill's progress (0..1) and ETA, the time up to which data is complete
   * while history is still being built, the chain's slot lag, and why it retries or stopped */
  source: {
    kind: string;
    phase: string;
    since: string;
    progress: number | null;
    eta_s: number | null;
    complete_to: string | null;
    slot_lag: number | null;
    reason: string | null;
  };
  /** V8's garbage collections since the app was built: how many, their summed and longest pause in
   * ms (server/lib/gc-pauses.ts); null when the process does not observe them */
  gc: GcPauses | null;
}

class ProbeTimeout extends Error {}

/** What the database probe reads: the derived state's position, and DuckDB's memory in bytes. */
interface Probe {
  derived: HealthBody['derived'];
  duckdbBytes: number | null;
}

const mib = (bytes: number): number => Math.round(bytes / 1048576);

/** Runs the database probe, failing after {@link PROBE_TIMEOUT_MS}; the row's values are plain
 * (server/db/values.ts: the seq a number, the time an ISO string). */
async function probe(service: Service): Promise<Probe> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), PROBE_TIMEOUT_MS);
  });
  try {
    const row = await Promise.race([probeQuery(service, performance.now() + PROBE_TIMEOUT_MS), timeout]);
    return {
      derived: { seq: (row?.derived_seq as number | null | undefined) ?? null, last_fill_time: (row?.last_fill_time as string | null | undefined) ?? null },
      duckdbBytes: (row?.duckdb_bytes as number | null | undefined) ?? null,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** DuckDB's refusal of an allocation: every block held by other queries at that moment. */
const OUT_OF_MEMORY = /Out of Memory Error/;

/**
 * The probe's query, tried again every 100 ms until `deadline` while DuckDB refuses it memory: a
 * heavy query beside it (a read-side build) holding the whole limit for a moment is not a broken
 * database, and the probe's one block is free again once that query's sort moves on.
 */
async function probeQuery(service: Service, deadline: number): Promise<Awaited<ReturnType<Service['db']['queryOne']>>> {
  for (;;) {
    try {
      return await service.db.queryOne('api/health-derived');
    } catch (err) {
      if (!OUT_OF_MEMORY.test((err as Error).message) || performance.now() + 100 >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The health of `service` now; `startedAt` is when the app was built (epoch ms); `warming` says
 * whether the app's read side is still loading (see {@link HealthBody.read_side}). */
export async function healthOf(service: Service, startedAt: number, cache?: ResponseCache, warming?: () => boolean): Promise<HealthBody> {
  const problems: string[] = [];
  let derived: HealthBody['derived'] = { seq: null, last_fill_time: null };
  let duckdbBytes: number | null = null;
  try {
    ({ derived, duckdbBytes } = await probe(service));
  } catch (err) {
    if (err instanceof ProbeTimeout) problems.push(`database: no answer within ${PROBE_TIMEOUT_MS} ms`);
    else {
      problems.push('database: the probe query failed (see the log)');
      log.error('health: the database probe failed', err);
    }
  }
  const append = service.appendState();
  if (append.failure) problems.push('append path stopped after a failure it could not repair (see the log)');
  const src = service.source.get();
  // ingestion paused (a full disk) or ended: reads are still served, but the data goes stale
  if (src.phase === 'retrying' || src.phase === 'stopped') problems.push(`source ${src.phase}: ${src.reason ?? 'see the log'}`);
  return {
    status: problems.length ? 'failing' : 'ok',
    data_source: service.source.dataSource(),
    problems,
    version: API_VERSION,
    uptime_s: Math.floor((Date.now() - startedAt) / 1000),
    journal: { last_seq: service.lastSeq() },
    derived,
    append: { last_commit_at: append.lastCommitAt === undefined ? null : isoFromMs(append.lastCommitAt), stopped: append.failure !== undefined },
    cache: cache?.on() ? { hits: cache.stats.hits, misses: cache.stats.misses, kept_across_appends: cache.stats.kept, entries: cache.size() } : null,
    read_side: warming ? { warming: warming() } : null,
    source: {
      kind: src.source,
      phase: src.phase,
      since: isoFromMs(src.sinceMs),
      progress: src.progress,
      eta_s: src.etaS,
      complete_to: src.completeToMs === null ? null : isoFromMs(src.completeToMs),
      slot_lag: src.slotLag,
      reason: src.reason,
    },
    memory: memoryOf(duckdbBytes),
    gc: gcPauses(),
  };
}

function memoryOf(duckdbBytes: number | null): HealthBody['memory'] {
  const m = process.memoryUsage();
  return { rss_mib: mib(m.rss), js_heap_mib: mib(m.heapUsed), js_external_mib: mib(m.external), duckdb_mib: duckdbBytes === null ? null : mib(duckdbBytes) };
}

/** Mounts {@link HEALTH_PATH} on `app` (GET only; anything else is the usual 405). */
export function mountHealth(app: H3, service: Service, cache?: ResponseCache, warming?: () => boolean): void {
  const startedAt = Date.now();
  app.all(HEALTH_PATH, async (event) => {
    if (!isRead(event.req.method)) throw methodNotAllowed();
    const body = await healthOf(service, startedAt, cache, warming);
    stageHeader(event, 'cache-control', 'no-store');
    return jsonAnswer(event, JSON.stringify(body), body.status === 'ok' ? 200 : 503);
  });
}
