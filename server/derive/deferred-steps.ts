/*
 * The fill steps that a fold from an empty state (a rebuild) runs once over the whole journal
 * after its last fill chunk instead of in every chunk: the accounts (a function of the lifecycles
 * alone) and the fill rollups with the market list (counts and exact decimal sums, so summing
 * all fills at once gives what merging them chunk by chunk gives). Once costs less than per chunk:
 * every chunk's rollup steps merged into, and re-read, a growing table (docs/performance.md, "Rebuild").
 */

import type { Writer } from '../db/writer.ts';
import { sqlFile } from '../db/sql-files.ts';
import { resetStaging } from '../journal/stage.ts';
import type { PhaseTimer } from '../lib/phase-timer.ts';
import { ACCOUNT_MERGE, ACCOUNT_STEPS, OPEN_POSITION_FILL_STEPS, ROLLUP_STEPS } from './apply.ts';

/** The rollup steps that merge into or delete from rows the one pass has just cleared. */
const NOTHING_TO_MERGE = new Set(['rollup-update', 'rollup-1h-delete', 'rollup-1d-delete']);
/**
 * The fill steps of {@link foldDeferred} (apply.ts's account and rollup groups), plus the
 * open-position-latest-fill steps, which such a fold skips in its fill chunks and never needs:
 * they copy position_latest rows of open lifecycles into open_position_latest, and position_latest
 * is empty until the position snapshots, which come after every fill chunk
 * (open-position-latest-all.sql or the snapshot steps fill open_position_latest then).
 */
export const DEFERRED_FILL_STEPS: ReadonlySet<string> = new Set([...ACCOUNT_STEPS, ...ROLLUP_STEPS, ...OPEN_POSITION_FILL_STEPS]);

/** The meta key that says a fold has deferred these steps (kept across a resumed rebuild; its
 * name is older than the rollups joining the accounts here, and a half-built file may hold it). */
export const DEFERRED_KEY = 'catchup_accounts_pending';

/**
 * Runs the deferred steps over everything folded so far, inside the caller's transaction, and
 * clears {@link DEFERRED_KEY}. The accounts are recomputed from every lifecycle; the
 * rollups are cleared and recomputed by their own derive steps reading every fill, through a
 * temporary `batch_fills` view of `fills` (the steps read the batch by that name). Clearing first
 * makes this right whatever the chunks before did, e.g. a rebuild begun by an older version that
 * still folded rollups per chunk.
 */
export async function foldDeferred(w: Writer, phases?: PhaseTimer): Promise<void> {
  await resetStaging(w, 'temp');
  // every lifecycle as a change to an empty accounts table: accounts-stage.sql sums each account
  // from all of them, as it adds a batch's changes (the same statement, so the same bits)
  await w.exec('DELETE FROM accounts; DROP TABLE IF EXISTS temp.main.account_changes');
  await w.exec(sqlFile('catchup/accounts-changes-all'));
  try {
    for (const step of ACCOUNT_MERGE) await w.run(`derive/${step}`);
  } finally {
    // batch_accounts holds every account here: not kept in memory until the next append
    await w.exec('DROP VIEW IF EXISTS temp.main.account_changes; DROP TABLE IF EXISTS temp.main.batch_accounts');
  }
  phases?.lap('accounts (all)');
  await w.exec(sqlFile('catchup/rollups-clear'));
  await w.exec('DROP TABLE temp.main.batch_fills; CREATE TEMP VIEW batch_fills AS SELECT * FROM fills');
  try {
    for (const step of ROLLUP_STEPS) {
      if (NOTHING_TO_MERGE.has(step)) continue;
      await w.run(`derive/${step}`);
      phases?.lap(`${step} (all)`);
    }
  } finally {
    // batch_rollup now holds every bucket (1.9M rows on the bench journal): a server that caught
    // up from an empty state would keep it in memory until its next append replaced it
    await w.exec('DROP VIEW IF EXISTS temp.main.batch_fills; DROP TABLE IF EXISTS temp.main.batch_rollup');
    await resetStaging(w, 'temp');
  }
  await w.run('derive/meta-set', { key: DEFERRED_KEY, value: '0' });
}
