/**
 * The chaos run's comparison with an uninterrupted run: the same simulator (seed, scale, and the
 * same switch to live mode, which is part of its timeline) run in one go, without kills, to the
 * time the killed run's journal is complete to. Every fill before that time must be in both
 * journals with the same values, found by its dedup key (protocol, tx, event_index).
 */
import { join } from 'node:path';
import { Database } from '../db/database.ts';
import { readCheckpoint } from '../journal/checkpoint.ts';
import { kindGlob } from '../journal/layout.ts';
import { openService } from '../service.ts';
import { Simulator } from '../sources/simulate/simulator.ts';
import { SIMULATE_SOURCE, simulateUntil, type SimulateSourceOptions } from '../sources/simulate/source.ts';

export interface UninterruptedFigures {
  /** the killed journal's simulated end: fills before it are compared */
  completeTo: string;
  /** fills before `completeTo` in the killed run's journal and in the uninterrupted one */
  killedFills: number;
  uninterruptedFills: number;
  /** fills (all columns but seq) in one journal and not the other, counted with multiplicity */
  onlyKilled: number;
  onlyUninterrupted: number;
  /** fills of the same key whose seq differs (their order of arrival) */
  seqDiffers: number;
}

/** True when the two journals hold the same fills. */
export function sameFills(f: UninterruptedFigures): boolean {
  return f.killedFills === f.uninterruptedFills && f.onlyKilled === 0 && f.onlyUninterrupted === 0;
}

interface SimulateCheckpoint extends SimulateSourceOptions {
  simulatedTo: number;
  liveFrom: number | null;
  liveBoost: number;
}

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Runs the uninterrupted twin of the stopped, killed run in `killedDir` into `<work>/uninterrupted` and compares their fills. */
export async function compareWithUninterrupted(killedDir: string, work: string): Promise<UninterruptedFigures> {
  const cp = readCheckpoint(killedDir).sources[SIMULATE_SOURCE] as SimulateCheckpoint | undefined;
  if (!cp) throw new Error(`chaos: ${killedDir} holds no simulated journal`);
  const opts = { seed: cp.seed, scale: cp.scale };
  const twinDir = join(work, 'uninterrupted');
  const twin = await openService({ dataDir: twinDir });
  try {
    const sim = new Simulator(opts);
    if (cp.liveFrom !== null) sim.goLive(cp.liveBoost, cp.liveFrom);
    await simulateUntil(twin, sim, opts, cp.simulatedTo);
  } finally {
    await twin.close();
  }
  const db = await Database.open(':memory:', { readers: 1 });
  try {
    const fills = (dir: string) => `(SELECT * FROM read_parquet(${q(kindGlob(dir, 'fills'))}, hive_partitioning = true) WHERE time < epoch_ms(${cp.simulatedTo}::BIGINT))`;
    await db.querySql(`CREATE TEMP TABLE killed AS SELECT * FROM ${fills(killedDir)}`);
    await db.querySql(`CREATE TEMP TABLE twin AS SELECT * FROM ${fills(twinDir)}`);
    const [r] = await db.querySql(`SELECT
      (SELECT count(*) FROM killed)::BIGINT AS killed,
      (SELECT count(*) FROM twin)::BIGINT AS twin,
      (SELECT count(*) FROM (SELECT * EXCLUDE (seq) FROM killed EXCEPT ALL SELECT * EXCLUDE (seq) FROM twin))::BIGINT AS only_killed,
      (SELECT count(*) FROM (SELECT * EXCLUDE (seq) FROM twin EXCEPT ALL SELECT * EXCLUDE (seq) FROM killed))::BIGINT AS only_twin,
      (SELECT count(*) FROM killed k JOIN twin t USING (protocol, tx, event_index) WHERE k.seq <> t.seq)::BIGINT AS seq_differs`);
    return {
      completeTo: new Date(cp.simulatedTo).toISOString(),
      killedFills: Number(r!.killed),
      uninterruptedFills: Number(r!.twin),
      onlyKilled: Number(r!.only_killed),
      onlyUninterrupted: Number(r!.only_twin),
      seqDiffers: Number(r!.seq_differs),
    };
  } finally {
    await db.close();
  }
}
