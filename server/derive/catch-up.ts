import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Writer } from '../db/database.ts';
import { sqlFile } from '../db/sql-files.ts';
import { log } from '../log.ts';
import type { Checkpoint } from '../journal/checkpoint.ts';
import { journalDir, kindGlob, parseFileName } from '../journal/layout.ts';
import type { JournalKind } from '../journal/rows.ts';
import { resetStaging } from '../journal/stage.ts';
import { applyKind, inTransaction, readWatermark, setWatermark, type StagedKind, type Watermark } from './apply.ts';

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
  // one kind at a time, so only one kind's rows are staged in memory at once
  const counts: Record<StagedKind, number> = { fills: 0, marketSnapshots: 0, positionSnapshots: 0 };
  const sources: [StagedKind, JournalKind, string, Record<string, number>][] = [
    ['fills', 'fills', 'stage-fills', { after_seq: from.seq }],
    ['marketSnapshots', 'market_snapshots', 'stage-market-snapshots', { after_commit: from.commit }],
    ['positionSnapshots', 'position_snapshots', 'stage-position-snapshots', { after_commit: from.commit }],
  ];
  const mark = { seq: checkpoint.lastSeq, commit: checkpoint.commit };
  await inTransaction(w, async () => {
    for (const [i, [kind, journalKind, file, params]] of sources.entries()) {
      await resetStaging(w.connection);
      counts[kind] = await stage(w, dataDir, journalKind, file, params);
      if (counts[kind]) await applyKind(w, kind);
      const seconds = (performance.now() - started) / 1000;
      log.info(`derived state: ${i + 1}/3 ${journalKind} (${counts[kind].toLocaleString('en-US')} rows) folded · ${seconds.toFixed(1)} s elapsed`);
    }
    await setWatermark(w, mark);
  });
  await resetStaging(w.connection);
  log.success(`derived state: caught up to seq ${mark.seq} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return mark;
}
