import type { Writer } from '../db/writer.ts';
import type { PhaseTimer } from '../lib/phase-timer.ts';

/** The fill steps that add a batch's lifecycle changes to its accounts (a rebuild computes the
 * accounts once instead, deferred-steps.ts). accounts-changes runs between lifecycles-insert and
 * open-lifecycles-delete (it reads the open lifecycles as they were before the batch); the rest
 * after the open-lifecycle steps. */
export const ACCOUNT_STEPS = ['accounts-changes', 'accounts-stage', 'accounts-delete', 'accounts-insert'];
const [ACCOUNT_CHANGES, ...MERGE] = ACCOUNT_STEPS;
/** The account steps after accounts-changes: what a rebuild runs once over every lifecycle. */
export const ACCOUNT_MERGE = MERGE;
/** The fill rollup steps, with the market list read from their batch_rollup (likewise). */
export const ROLLUP_STEPS = ['rollup-stage', 'rollup-update', 'rollup-insert', 'rollup-1h-delete', 'rollup-1h-insert', 'rollup-1d-delete', 'rollup-1d-insert', 'markets-insert'];
/** The fill steps that copy position_latest rows of open lifecycles (a rebuild skips them). */
export const OPEN_POSITION_FILL_STEPS = ['open-position-latest-fill-delete', 'open-position-latest-fill-insert'];

/** The price OHLC steps of fills or market snapshots: 5-minute (batch_price is the stage's), then
 * the hourly and daily levels recomputed for the hours and days the batch touched. */
const PRICE_STEPS = (source: 'fill' | 'snapshot'): string[] => [`price-${source}-stage`, 'price-update', 'price-insert', 'price-1h-delete', 'price-1h-insert', 'price-1d-delete', 'price-1d-insert'];

/** Derive steps in order; each is one statement in sql/derive/. Fill steps read batch_fills,
 * snapshot steps batch_msnap / batch_psnap (price-update and price-insert read batch_price, made by price-fill-stage or price-snapshot-stage); rollup-update, rollup-insert and markets-insert read
 * batch_rollup, which rollup-stage makes from the batch's fills. */
const FILL_STEPS = [
  'insert-fills',
  'fills-by-address-insert',
  'liquidations-insert',
  'lifecycles-delete',
  'lifecycles-insert',
  ACCOUNT_CHANGES!,
  'open-lifecycles-delete',
  'open-lifecycles-insert',
  ...OPEN_POSITION_FILL_STEPS,
  ...ACCOUNT_MERGE,
  ...ROLLUP_STEPS,
  ...PRICE_STEPS('fill'),
];
const MARKET_SNAPSHOT_STEPS = [
  'market-latest-delete',
  'market-latest-insert',
  'oi-snapshot-delete',
  'oi-snapshot-insert',
  'oi-snapshot-1d-delete',
  'oi-snapshot-1d-insert',
  'oi-snapshot-1h-delete',
  'oi-snapshot-1h-insert',
  'funding-insert',
  ...PRICE_STEPS('snapshot'),
];
const POSITION_SNAPSHOT_STEPS = ['position-latest-delete', 'position-latest-insert', 'open-position-latest-snap-delete', 'open-position-latest-snap-insert'];
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

export type StagedKind = keyof StagedCounts;
const STEPS: Record<StagedKind, string[]> = {
  fills: FILL_STEPS,
  marketSnapshots: MARKET_SNAPSHOT_STEPS,
  positionSnapshots: POSITION_SNAPSHOT_STEPS,
};

/** Runs the derive steps of one staged kind (inside the caller's transaction); with `phases`,
 * times each step (debug logs). `skip`: steps a rebuild defers or skips (see deferred-steps.ts). */
export async function applyKind(w: Writer, kind: StagedKind, phases?: PhaseTimer, skip?: ReadonlySet<string>): Promise<void> {
  for (const step of STEPS[kind]) {
    if (skip?.has(step)) continue;
    await w.run(`derive/${step}`);
    phases?.lap(step);
  }
}

/** The temp tables derive steps make from a batch (replaced by the next batch's). */
const BATCH_TEMPS = ['batch_rollup', 'account_changes', 'batch_accounts', 'batch_price'];

/** Drops the derive steps' per-batch temp tables: after a catch-up, whose chunks made them large. */
export async function dropBatchTemps(w: Writer): Promise<void> {
  await w.exec(BATCH_TEMPS.map((t) => `DROP TABLE IF EXISTS temp.main.${t}`).join('; '));
}

/** Records the journal position the derived state now includes (inside the caller's transaction). */
export async function setWatermark(w: Writer, mark: Watermark): Promise<void> {
  await w.run('derive/meta-set', { key: 'derived_seq', value: String(mark.seq) });
  await w.run('derive/meta-set', { key: 'derived_commit', value: String(mark.commit) });
}

/** Runs `fn` in a transaction on the writer, rolling back if it throws. */
export async function inTransaction(w: Writer, fn: () => Promise<void>): Promise<void> {
  await w.exec('BEGIN TRANSACTION');
  try {
    await fn();
    await w.exec('COMMIT');
  } catch (err) {
    await w.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Folds the staged batch into the derived state and records the watermark, inside the caller's
 * transaction (the append path commits it once the batch's journal commit is durable). The same
 * steps serve incremental appends (the batch is one commit) and catch-up or rebuild (the batch is
 * every commit of a chunk, see catch-up.ts), so both give the same tables by construction — a
 * test checks it.
 */
export async function applyStaged(w: Writer, counts: StagedCounts, mark: Watermark, phases?: PhaseTimer): Promise<void> {
  for (const kind of Object.keys(STEPS) as StagedKind[]) if (counts[kind]) await applyKind(w, kind, phases);
  await setWatermark(w, mark);
}

/** Reads the watermark of the derived state ({0, 0} when empty). */
export async function readWatermark(w: Writer): Promise<Watermark> {
  const rows = await w.rows(`SELECT key, value FROM meta WHERE key IN ('derived_seq', 'derived_commit')`);
  const get = (k: string) => Number(rows.find((r) => r.key === k)?.value ?? 0);
  return { seq: get('derived_seq'), commit: get('derived_commit') };
}
