import type { Writer } from '../db/database.ts';

/** Derive steps in order; each is one statement in sql/derive/. Fill steps read batch_fills,
 * snapshot steps batch_msnap / batch_psnap. */
const FILL_STEPS = [
  'insert-fills',
  'lifecycles-delete',
  'lifecycles-insert',
  'accounts-delete',
  'accounts-insert',
  'rollup-delete',
  'rollup-insert',
];
const MARKET_SNAPSHOT_STEPS = [
  'market-latest-delete',
  'market-latest-insert',
  'oi-snapshot-delete',
  'oi-snapshot-insert',
  'funding-insert',
];
const POSITION_SNAPSHOT_STEPS = ['position-latest-delete', 'position-latest-insert'];

export interface StagedCounts {
  fills: number;
  marketSnapshots: number;
  positionSnapshots: number;
}

/** The journal position the derived state includes, stored in `meta`. */
export interface Watermark {
  seq: number;
  commit: number;
}

/**
 * Folds the staged batch into the derived state and records the watermark, in one transaction.
 * The same steps serve incremental appends (the batch is one commit) and rebuilds (the batch is
 * the whole journal), so both give the same tables by construction — a test checks it.
 */
export async function applyStaged(w: Writer, counts: StagedCounts, mark: Watermark): Promise<void> {
  await w.exec('BEGIN TRANSACTION');
  try {
    if (counts.fills) for (const step of FILL_STEPS) await w.run(`derive/${step}`);
    if (counts.marketSnapshots) for (const step of MARKET_SNAPSHOT_STEPS) await w.run(`derive/${step}`);
    if (counts.positionSnapshots) for (const step of POSITION_SNAPSHOT_STEPS) await w.run(`derive/${step}`);
    await w.run('derive/meta-set', { key: 'derived_seq', value: String(mark.seq) });
    await w.run('derive/meta-set', { key: 'derived_commit', value: String(mark.commit) });
    await w.exec('COMMIT');
  } catch (err) {
    await w.exec('ROLLBACK');
    throw err;
  }
}

/** Reads the watermark of the derived state ({0, 0} when empty). */
export async function readWatermark(w: Writer): Promise<Watermark> {
  const rows = await w.rows(`SELECT key, value FROM meta WHERE key IN ('derived_seq', 'derived_commit')`);
  const get = (k: string) => Number(rows.find((r) => r.key === k)?.value ?? 0);
  return { seq: get('derived_seq'), commit: get('derived_commit') };
}
