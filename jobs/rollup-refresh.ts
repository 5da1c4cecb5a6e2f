import type { Writer } from '../server/db/writer.ts';
import { sqlFile } from '../server/db/sql-files.ts';
import { inTransaction, readWatermark, type Watermark } from '../server/derive/apply.ts';
import { dropTempStaging, resetStaging } from '../server/journal/stage.ts';
import { log } from '../server/lib/log.ts';
import type { Service } from '../server/service.ts';
import { markRollupsRefreshed, ROLLUP_REFRESH_COMMIT_KEY, ROLLUP_REFRESH_SEQ_KEY } from '../server/derive/rollup-watermark.ts';
import { dataPartitions, withFiles } from './journal-files.ts';
import { readJobNumber, writeJobNumber } from './job-state.ts';
import { DAY_MS } from '../server/lib/time.ts';

const SEQ_KEY = ROLLUP_REFRESH_SEQ_KEY;
const COMMIT_KEY = ROLLUP_REFRESH_COMMIT_KEY;
/** Calendar days recomputed per hold of the writer lock, so appends never wait long. */
const DAYS_PER_CHUNK = 3;

export interface RollupRefreshResult {
  /** fill buckets (5 min, per market key) recomputed */
  fillBuckets: number;
  /** snapshot-OI buckets (5 min) recomputed; funding hours are those that hold them */
  snapshotBuckets: number;
  /** the derived watermark the refresh covered up to */
  seq: number;
  commit: number;
  /** set when the run was skipped because a backfill from an empty state is building the rollups */
  deferred?: true;
}

/** Services whose rollups a backfill from an empty state is building ({@link backfillBuildingRollups}). */
const builtByBackfill = new WeakSet<Service>();

/**
 * Rollup refresh: the rollups (`rollup_5m`, `oi_snapshot_5m`, `funding_1h`) are maintained
 * additively on every append; this recomputes, from the data itself, exactly the buckets touched
 * since the last run and replaces them, so any drift is repaired. Touched: fill buckets of fills
 * after the stored seq (recomputed from the derived `fills`), snapshot buckets of market-snapshot
 * files of commits after the stored commit (recomputed from every snapshot of those days in the
 * journal: the derived state keeps only the latest). The first run with no stored watermark (a
 * state built append by append, other than by a source's backfill from an empty state, which
 * marks it: {@link backfillBuildingRollups}) recomputes every bucket.
 *
 * The work goes a chunk of days at a time, each chunk in one transaction under the database
 * writer, so no append interleaves with a recomputation and none waits long; the watermark (the
 * derived state's position when the run began) is stored last. An append between chunks is
 * folded into a bucket additively or found by the recomputation, and is looked at again next run.
 * A catch-up from an empty state stores the watermark itself ({@link markRollupsRefreshed}).
 */
export async function refreshRollups(service: Service): Promise<RollupRefreshResult> {
  const { db } = service;
  if (builtByBackfill.has(service)) {
    // no watermark is stored until that backfill marks one (it began with none), so 0 / 0; and no
    // wait for the writer, which the backfill's appends hold
    log.debug('rollup refresh: skipped, a backfill from an empty state is building the rollups (it marks them refreshed)');
    return { fillBuckets: 0, snapshotBuckets: 0, seq: 0, commit: 0, deferred: true };
  }
  const start = await db.write(async (w) => ({
    mark: await readWatermark(w),
    afterSeq: (await readJobNumber(w, SEQ_KEY)) ?? 0,
    afterCommit: (await readJobNumber(w, COMMIT_KEY)) ?? 0,
  }));
  const { mark, afterSeq, afterCommit } = start;
  const fillDays = (await db.query('jobs/rollup-days', { after_seq: afterSeq, to_seq: mark.seq })).map((r) => r.day as string);
  const snapshotDays = dataPartitions(service.dataDir, 'market_snapshots')
    .filter((p) => p.files.some((f) => f.last > afterCommit && f.first <= mark.commit))
    .map((p) => p.day);
  const days = [...new Set([...fillDays, ...snapshotDays])].sort();

  let fillBuckets = 0;
  let snapshotBuckets = 0;
  for (const chunk of chunksOf(days)) {
    const started = performance.now();
    const counts = await db.write((w) => refreshChunk(w, service.dataDir, chunk, afterSeq, afterCommit));
    if (counts.fills || counts.snapshots) {
      service.derivedChanged({
        fromMs: Date.parse(`${chunk[0]}T00:00:00Z`),
        toMs: Date.parse(`${chunk.at(-1)}T00:00:00Z`) + DAY_MS - 1,
        marketSnapshots: counts.snapshots > 0,
      });
    }
    log.debug(`rollup refresh: ${chunk[0]}..${chunk.at(-1)} in ${(performance.now() - started).toFixed(0)} ms (writer held)`);
    fillBuckets += counts.fills;
    snapshotBuckets += counts.snapshots;
  }
  await db.write(async (w) => {
    await writeJobNumber(w, SEQ_KEY, mark.seq);
    await writeJobNumber(w, COMMIT_KEY, mark.commit);
    await w.exec('DROP TABLE IF EXISTS job_touched_5m; DROP TABLE IF EXISTS job_touched_msnap; DROP TABLE IF EXISTS job_msnap');
  });
  if (fillBuckets || snapshotBuckets) {
    log.info(`rollup refresh: ${fillBuckets} fill buckets and ${snapshotBuckets} snapshot buckets recomputed over ${days.length} days (to seq ${mark.seq})`);
  }
  return { fillBuckets, snapshotBuckets, ...pick(mark) };
}

/**
 * Runs a source's backfill (the simulator's, a replay, the solana indexer's to the tip) so that,
 * when it starts on an empty state on which the refresh has never run, the rollups it builds are
 * marked refreshed once `completed(result)`, as a catch-up from an empty state marks them: its
 * appends fold the journal they write commit by commit through the derive steps a chunked
 * catch-up runs (whose fold equals the one-batch fold and the append-built state,
 * test/derive/catch-up-chunks.test.ts). Without the mark the first refresh recomputed every bucket (the
 * bench journal: 1.87M fill and 0.67M snapshot buckets, 117 s and 197 CPU-s inside the serving
 * process), and again after every restart until one run finished.
 *
 * Meanwhile every refresh of `service` is deferred (returns `deferred: true`): it has no drift to
 * repair but, with no watermark stored yet, recomputed every bucket appended so far between the
 * backfill's appends (`npm start` on a fresh machine: a 10-minute tick falls inside the ~46 s
 * backfill about one start in thirteen). The deferral lives in memory, and a backfill that did not
 * complete (stopped, failed, killed) marks nothing: its first refresh, or the one after the
 * backfill that resumes it on a non-empty state, recomputes every bucket (conservative).
 */
export async function backfillBuildingRollups<T>(service: Service, backfill: () => Promise<T>, completed: (result: T) => boolean): Promise<T> {
  const fromEmpty = await service.db.write(async (w) => {
    const mark = await readWatermark(w);
    return mark.seq === 0 && mark.commit === 0 && (await readJobNumber(w, SEQ_KEY)) === undefined;
  });
  if (fromEmpty) builtByBackfill.add(service);
  try {
    const result = await backfill();
    if (fromEmpty && completed(result)) await service.db.write(async (w) => markRollupsRefreshed(w, await readWatermark(w)));
    return result;
  } finally {
    if (fromEmpty) builtByBackfill.delete(service);
  }
}

/** Groups sorted days into runs spanning at most DAYS_PER_CHUNK calendar days. */
function chunksOf(days: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const d of days) {
    const cur = out.at(-1);
    if (cur && Date.parse(d) - Date.parse(cur[0]!) < DAYS_PER_CHUNK * DAY_MS) cur.push(d);
    else out.push([d]);
  }
  return out;
}

/** The append path's rollup steps (sql/derive/), run on the re-staged fills of the touched buckets. */
const ROLLUP_STEPS = ['rollup-stage', 'rollup-insert', 'rollup-1h-delete', 'rollup-1h-insert', 'rollup-1d-delete', 'rollup-1d-insert'];

const pick = (m: Watermark) => ({ seq: m.seq, commit: m.commit });

/** Recomputes the touched buckets of some days (YYYY-MM-DD, sorted) in one transaction. */
async function refreshChunk(w: Writer, dataDir: string, days: string[], afterSeq: number, afterCommit: number) {
  const counts = { fills: 0, snapshots: 0 };
  const from = Date.parse(`${days[0]}T00:00:00Z`);
  const to = Date.parse(`${days.at(-1)}T00:00:00Z`) + DAY_MS;
  await inTransaction(w, async () => {
    await w.rows(sqlFile('jobs/rollup-touched'), { after_seq: afterSeq, from_ms: from, to_ms: to });
    counts.fills = await countOf(w, 'job_touched_5m');
    if (counts.fills) {
      await w.rows(sqlFile('jobs/rollup-delete'));
      // the touched buckets' fills go through the append path's own rollup steps (5-minute and
      // daily rows), so the refresh cannot compute them differently from an append or a rebuild
      // temp staging: written in this transaction with the derived tables (server/journal/stage.ts)
      await resetStaging(w, 'temp');
      await w.rows(sqlFile('jobs/rollup-stage-fills'));
      for (const step of ROLLUP_STEPS) await w.run(`derive/${step}`);
      await dropTempStaging(w);
    }
    // listed under the lock, so the files are exactly the commits the derived state holds
    const files = dataPartitions(dataDir, 'market_snapshots', new Set(days)).flatMap((p) => p.files.map((f) => f.path));
    if (files.length === 0) return;
    await w.exec(withFiles(sqlFile('jobs/msnap-load'), files));
    await w.rows(sqlFile('jobs/msnap-touched'), { after_commit: afterCommit });
    counts.snapshots = await countOf(w, 'job_touched_msnap');
    if (counts.snapshots) {
      await w.rows(sqlFile('jobs/oi-refresh-delete'));
      await w.rows(sqlFile('jobs/oi-refresh-insert'));
      await w.rows(sqlFile('jobs/oi-1d-refresh-delete'));
      await w.rows(sqlFile('jobs/oi-1d-refresh-insert'));
      await w.rows(sqlFile('jobs/oi-1h-refresh-delete'));
      await w.rows(sqlFile('jobs/oi-1h-refresh-insert'));
      await w.rows(sqlFile('jobs/funding-refresh-delete'));
      await w.rows(sqlFile('jobs/funding-refresh-insert'));
    }
  });
  return counts;
}

async function countOf(w: Writer, table: string): Promise<number> {
  const [row] = await w.rows(`SELECT count(*)::INTEGER AS n FROM ${table}`);
  return Number(row?.n ?? 0);
}
