/**
 * Endpoint 13's address prefix search (`search=`, case-insensitive): the accounts snapshot's
 * lower-cased addresses kept sorted with their row indices (server/http/accounts-index.ts), and
 * carried over when the snapshot is patched after an append.
 */
import type { AccountTable } from './account-table.ts';
import { lowerBound } from './lower-bound.ts';

/**
 * The lower-cased addresses in sorted order with their row indices, so a case-insensitive prefix
 * search is a binary search (walking every address of a 90k-account order with `startsWith` put
 * endpoint 13's p99 at 15-20 ms). Two addresses may lower to the same key; they sit side by side.
 */
export interface PrefixIndex {
  keys: string[];
  rows: Int32Array;
}

/** The prefix index of every row of `table`. */
export function prefixIndexOf(table: AccountTable): PrefixIndex {
  const lower = table.strings('address').map((a) => a.toLowerCase());
  const rows = Int32Array.from({ length: table.length }, (_, i) => i).sort((a, b) => (lower[a]! < lower[b]! ? -1 : lower[a]! > lower[b]! ? 1 : 0));
  return { keys: Array.from(rows, (r) => lower[r]!), rows };
}

/** The rows of `index` whose key starts with `prefix` (lower case), in key order. */
export function rowsWithPrefix(index: PrefixIndex, prefix: string): number[] {
  const { keys, rows } = index;
  const out: number[] = [];
  for (let j = lowerBound(keys, prefix); j < keys.length && keys[j]!.startsWith(prefix); j++) out.push(rows[j]!);
  return out;
}

/**
 * `prefix` carried over to a patched table: kept rows renumbered by `newIndex` (-1 = dropped), the
 * rows from `firstFresh` on merged in at their place (a merge, not a re-sort of every address).
 */
export function patchedPrefix(prefix: PrefixIndex, newIndex: Int32Array, table: AccountTable, firstFresh: number): PrefixIndex {
  const addresses = table.strings('address');
  const fresh: [string, number][] = [];
  for (let r = firstFresh; r < table.length; r++) fresh.push([addresses[r]!.toLowerCase(), r]);
  fresh.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const keys: string[] = [];
  const rows = new Int32Array(table.length);
  let f = 0;
  const push = (key: string, row: number): void => {
    rows[keys.length] = row;
    keys.push(key);
  };
  for (let j = 0; j < prefix.keys.length; j++) {
    const row = newIndex[prefix.rows[j]!]!;
    if (row < 0) continue;
    const key = prefix.keys[j]!;
    while (f < fresh.length && fresh[f]![0] < key) push(...fresh[f++]!);
    push(key, row);
  }
  while (f < fresh.length) push(...fresh[f++]!);
  return { keys, rows };
}
