/**
 * `GET /v1/alpha/accounts/search`'s address prefix search (`search=`, case-insensitive): the accounts
 * snapshot's lower-cased addresses kept sorted with their row indices (server/read/accounts/accounts-index.ts),
 * and carried over when the snapshot is patched after an append.
 */
import type { AccountTable } from './account-table.ts';
import { lowerBound } from '../../lib/lower-bound.ts';

/**
 * The lower-cased addresses in sorted order with their row indices, so a case-insensitive prefix search
 * is a binary search (walking every address of a 90k-account order with `startsWith` put
 * `GET /v1/alpha/accounts/search`'s p99 at 15-20 ms). Two addresses may lower to the same key; they sit
 * side by side.
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
 * `prefix` with the rows of `table` from `firstFresh` on (accounts an append added) inserted at
 * their place: a binary search each, the keys spliced in (the array is the patched snapshot's own,
 * changed in place), the rows copied once into an array one longer per new account. Rebuilding the
 * key list instead (a merge of every address) cost ~5 ms of each live patch that added an account.
 */
export function withFreshRows(prefix: PrefixIndex, table: AccountTable, firstFresh: number): PrefixIndex {
  const addresses = table.strings('address');
  const fresh: [string, number][] = [];
  for (let r = firstFresh; r < table.length; r++) fresh.push([addresses[r]!.toLowerCase(), r]);
  fresh.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // places among the old keys, ascending (fresh is sorted): a new key goes before equal old ones
  const places = fresh.map(([key]) => lowerBound(prefix.keys, key));
  const rows = new Int32Array(prefix.rows.length + fresh.length);
  let from = 0;
  let o = 0;
  fresh.forEach(([, row], q) => {
    const p = places[q]!;
    rows.set(prefix.rows.subarray(from, p), o);
    o += p - from;
    from = p;
    rows[o++] = row;
  });
  rows.set(prefix.rows.subarray(from), o);
  // from the last, so that each place is still where it was among the old keys
  for (let q = fresh.length - 1; q >= 0; q--) prefix.keys.splice(places[q]!, 0, fresh[q]![0]);
  return { keys: prefix.keys, rows };
}
