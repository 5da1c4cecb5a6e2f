/**
 * `ORDER BY value ASC|DESC NULLS LAST` on sort values held as doubles (NaN = NULL), as
 * `GET /v1/alpha/accounts/{address}/history` (server/read/lifecycles/account-history.ts) and 16
 * (server/read/open-positions/open-position-set.ts) reproduce the SQL's order in memory.
 */

/** Compares `x` and `y` in direction `dir` (1 asc, -1 desc) with NULLs last either way; 0 when they tie (both NULL too). */
export function compareNullsLast(x: number, y: number, dir: 1 | -1): number {
  if (x === y) return 0;
  const xNull = Number.isNaN(x);
  const yNull = Number.isNaN(y);
  if (xNull || yNull) return xNull === yNull ? 0 : xNull ? 1 : -1;
  return x < y ? -dir : dir;
}
