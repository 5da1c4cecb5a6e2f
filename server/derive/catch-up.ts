import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Writer } from '../db/database.ts';
import { sqlFile } from '../db/sql-files.ts';
import { log } from '../log.ts';
import type { Checkpoint } from '../journal/checkpoint.ts';
import { journalDir, kindGlob, parseFileName } from '../journal/layout.ts';
import type { JournalKind } from '../journal/rows.ts';
import { resetStaging } from '../journal/stage.ts';
import { applyStaged, readWatermark, type Watermark } from './apply.ts';

/** True when at least one committed file of `kind` exists (read_parquet throws on an empty glob). */
function hasFiles(dataDir: string, kind: JournalKind): boolean {
  const root = join(journalDir(dataDir), kind);
  if (!existsSync(root)) return false;
  return readdirSync(root, { recursive: true }).some((f) => parseFileName(String(f).split('/').pop() ?? '') !== undefined);
}

async function stage(w: Writer, dataDir: string, kind: JournalKind, file: string, params: Record<string, number>): Promise<number> {
  if (!hasFiles(dataDir, kind)) return 0;
  const glob = `'${kindGlob(dataDir, kind).replaceAll("'", "''")}'`;
  const rows = await w.rows(sqlFile(`journal/${file}`).replace('__GLOB__', glob), params);
  return Number(rows[0]?.Count ?? 0);
}

/**
 * Brings the derived state up to the journal's checkpoint: stages every fill after the derived
 * seq and every snapshot file of a later commit, then applies them as one batch. On an empty
 * derived database this *is* the full rebuild. Returns the new watermark.
 */
export async function catchUp(w: Writer, dataDir: string, checkpoint: Checkpoint): Promise<Watermark> {
  const from = await readWatermark(w);
  if (from.commit >= checkpoint.commit) return from;
  const started = performance.now();
  log.start(`derived state: folding in journal commits ${from.commit + 1}..${checkpoint.commit}`);
  await resetStaging(w.connection);
  const counts = {
    fills: await stage(w, dataDir, 'fills', 'stage-fills', { after_seq: from.seq }),
    marketSnapshots: await stage(w, dataDir, 'market_snapshots', 'stage-market-snapshots', { after_commit: from.commit }),
    positionSnapshots: await stage(w, dataDir, 'position_snapshots', 'stage-position-snapshots', { after_commit: from.commit }),
  };
  log.info(
    `derived state: staged ${counts.fills} fills, ${counts.marketSnapshots} market and ` +
      `${counts.positionSnapshots} position snapshots in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const mark = { seq: checkpoint.lastSeq, commit: checkpoint.commit };
  await applyStaged(w, counts, mark);
  await resetStaging(w.connection);
  log.success(`derived state: caught up to seq ${mark.seq} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return mark;
}
