import type { Writer } from '../server/db/database.ts';
import { sqlFile } from '../server/db/sql-files.ts';
import { inTransaction, readWatermark } from '../server/derive/apply.ts';
import { log } from '../server/log.ts';
import type { Service } from '../server/service.ts';
import { dataPartitions, withFiles } from './journal-files.ts';
import { readJobNumber, writeJobNumber } from './job-state.ts';

const SEQ_KEY = 'rollup_refresh_seq';
const COMMIT_KEY = 'rollup_refresh_commit';

export interface RollupRefreshResult {
  /** fill buckets (5 min, per market key) recomputed */
  fillBuckets: number;
  /** snapshot-OI buckets (5 min) recomputed; funding hours are those that hold them */
  snapshotBuckets: number;
  /** the derived watermark the refresh covered up to */
  seq: number;
  commit: number;
}

/**
 * Rollup refresh: the rollups (`rollup_5m`, `oi_snapshot_5m`, `funding_1h`) are maintained
 * additively on every append; this recomputes, from the data itself, exactly the buckets touched
 * since the last run (fills after the stored seq; market snapshot files of later commits) and
 * replaces them, so any drift is repaired. The first run (no stored watermark, e.g. after a
 * rebuild) recomputes every bucket. Runs entirely inside the database writer, so no append
 * interleaves: the watermark and the buckets always agree. Fill buckets are recomputed from the
 * derived `fills` table; snapshot buckets from the journal's market-snapshot files of the
 * touched days (the derived state keeps only the latest market snapshot).
 */
export function refreshRollups(service: Service): Promise<RollupRefreshResult> {
  return service.db.write(async (w) => {
    const mark = await readWatermark(w);
    const afterSeq = (await readJobNumber(w, SEQ_KEY)) ?? 0;
    const afterCommit = (await readJobNumber(w, COMMIT_KEY)) ?? 0;
    let fillBuckets = 0;
    let snapshotBuckets = 0;
    await inTransaction(w, async () => {
      fillBuckets = await refreshFillBuckets(w, afterSeq);
      snapshotBuckets = await refreshSnapshotBuckets(w, service.dataDir, afterCommit);
      await writeJobNumber(w, SEQ_KEY, mark.seq);
      await writeJobNumber(w, COMMIT_KEY, mark.commit);
    });
    await w.exec('DROP TABLE IF EXISTS job_touched_5m; DROP TABLE IF EXISTS job_touched_msnap; DROP TABLE IF EXISTS job_msnap');
    if (fillBuckets || snapshotBuckets) {
      log.info(`rollup refresh: ${fillBuckets} fill buckets and ${snapshotBuckets} snapshot buckets recomputed (to seq ${mark.seq})`);
    }
    return { fillBuckets, snapshotBuckets, seq: mark.seq, commit: mark.commit };
  });
}

async function refreshFillBuckets(w: Writer, afterSeq: number): Promise<number> {
  await w.rows(sqlFile('jobs/rollup-touched'), { after_seq: afterSeq });
  const [count] = await w.rows('SELECT count(*)::INTEGER AS n FROM job_touched_5m');
  const n = Number(count?.n ?? 0);
  if (n === 0) return 0;
  await w.rows(sqlFile('jobs/rollup-delete'));
  await w.rows(sqlFile('jobs/rollup-insert'));
  return n;
}

async function refreshSnapshotBuckets(w: Writer, dataDir: string, afterCommit: number): Promise<number> {
  const partitions = dataPartitions(dataDir, 'market_snapshots');
  // a file whose commit range ends after the watermark holds new snapshots (a compacted file
  // may hold older ones too: its buckets are recomputed as well, which is only more work)
  const fresh = partitions.flatMap((p) => p.files.filter((f) => f.last > afterCommit).map((f) => f.path));
  if (fresh.length === 0) return 0;
  await w.exec(withFiles(sqlFile('jobs/msnap-touched'), fresh));
  const days = new Set((await w.rows('SELECT DISTINCT day FROM job_touched_msnap')).map((r) => r.day as string));
  const all = partitions.filter((p) => days.has(p.day)).flatMap((p) => p.files.map((f) => f.path));
  await w.exec(withFiles(sqlFile('jobs/msnap-load'), all));
  await w.rows(sqlFile('jobs/oi-refresh-delete'));
  await w.rows(sqlFile('jobs/oi-refresh-insert'));
  await w.rows(sqlFile('jobs/funding-refresh-delete'));
  await w.rows(sqlFile('jobs/funding-refresh-insert'));
  const [count] = await w.rows('SELECT count(*)::INTEGER AS n FROM job_touched_msnap');
  return Number(count?.n ?? 0);
}
