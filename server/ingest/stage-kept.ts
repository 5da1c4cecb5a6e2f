import type { Writer } from '../db/writer.ts';
import type { Fill, PositionSnapshot } from '../journal/rows.ts';
import { stageBlock, stageRows } from '../journal/stage.ts';
import type { ColumnBlock } from './columns.ts';

/**
 * Stages the rows the append path kept: from the source's column mirror of its rows (plus the
 * assigned `seq` / `position_id`) when every incoming row was kept in order, else row by row.
 */
export async function stageKept(
  w: Writer,
  table: 'batch_fills' | 'batch_psnap',
  kept: readonly (Fill | PositionSnapshot)[],
  incoming: readonly object[],
  mirror: ColumnBlock | undefined,
  commit: number,
): Promise<void> {
  const n = kept.length;
  let same = mirror !== undefined && mirror.length === n && n === incoming.length;
  for (let i = 0; same && i < n; i++) same = kept[i] === incoming[i];
  if (!same) return stageRows(w.connection, table, kept, commit);
  const ids = new Float64Array(n);
  for (let i = 0; i < n; i++) ids[i] = kept[i]!.position_id;
  const columns: ColumnBlock['columns'] = { ...mirror!.columns, position_id: ids };
  if (table === 'batch_fills') {
    const seqs = new Float64Array(n);
    for (let i = 0; i < n; i++) seqs[i] = (kept[i] as Fill).seq;
    columns.seq = seqs;
  }
  await stageBlock(w.connection, table, { length: n, columns }, commit);
}
