/**
 * The journal's invariants after faults, checked on a stopped server's data directory: fill seqs
 * unique and gap-free, no duplicate fill key (protocol, tx, event_index), no duplicate position
 * snapshot key (docs/journal-keys.md), every Parquet file readable, no temp commit left, and the
 * derived state equal to a rebuild from the journal alone (the tests' rebuild/compare helper).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { diffWithRebuild } from '../../test/helpers/rebuild-diff.ts';
import { kindGlob, journalDir } from '../journal/layout.ts';
import { openService } from '../service.ts';

export interface JournalFigures {
  fills: number;
  seqGapFree: boolean;
  duplicateFillKeys: number;
  positionSnapshots: number;
  duplicatePositionSnapshots: number;
  parquetFiles: number;
  unreadableFiles: string[];
  leftovers: string[];
  rebuildDiff: Record<string, { onlyLive: number; onlyRebuilt: number }>;
}

/** True when every invariant holds. */
export function journalHolds(f: JournalFigures): boolean {
  return f.seqGapFree && f.duplicateFillKeys === 0 && f.duplicatePositionSnapshots === 0 && f.unreadableFiles.length === 0 && f.leftovers.length === 0 && Object.keys(f.rebuildDiff).length === 0;
}

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

export async function checkJournal(dataDir: string): Promise<JournalFigures> {
  const service = await openService({ dataDir });
  try {
    const run = (sql: string) => service.db.querySql(sql);
    const fills = `read_parquet(${q(kindGlob(dataDir, 'fills'))}, hive_partitioning = true)`;
    const psnap = `read_parquet(${q(kindGlob(dataDir, 'position_snapshots'))}, hive_partitioning = true)`;
    const [f] = await run(`SELECT count(*)::BIGINT AS n, count(DISTINCT seq)::BIGINT AS d, min(seq)::BIGINT AS lo, max(seq)::BIGINT AS hi FROM ${fills}`);
    const [dk] = await run(`SELECT count(*)::BIGINT AS n FROM (SELECT protocol, tx, event_index FROM ${fills} GROUP BY ALL HAVING count(*) > 1)`);
    const [p] = await run(`SELECT count(*)::BIGINT AS n FROM ${psnap}`);
    const [dp] = await run(`SELECT coalesce(sum(c - 1), 0)::BIGINT AS n FROM (SELECT count(*) AS c FROM ${psnap} GROUP BY protocol, position_key, source, time HAVING count(*) > 1)`);
    const files = readdirSync(journalDir(dataDir), { recursive: true }).map(String);
    const unreadable: string[] = [];
    const parquet = files.filter((x) => x.endsWith('.parquet'));
    for (const file of parquet) {
      try {
        await run(`SELECT count(*) FROM read_parquet(${q(join(journalDir(dataDir), file))})`);
      } catch {
        unreadable.push(file);
      }
    }
    const n = Number(f!.n);
    return {
      fills: n,
      seqGapFree: n === Number(f!.d) && Number(f!.lo) === 1 && Number(f!.hi) === n,
      duplicateFillKeys: Number(dk!.n),
      positionSnapshots: Number(p!.n),
      duplicatePositionSnapshots: Number(dp!.n),
      parquetFiles: parquet.length,
      unreadableFiles: unreadable,
      leftovers: files.filter((x) => x.split('/').some((part) => part.startsWith('.tmp-')) || x.endsWith('.intent.json')),
      rebuildDiff: await diffWithRebuild(service),
    };
  } finally {
    await service.close();
  }
}
