import type { ParamsOf, QueryName } from './queries.ts';
import type { RowOf, RowQueryName } from './query-rows.ts';
import type { Params, Row } from './run-sql.ts';

/**
 * The parameters of a call naming `sql/<N>.sql`: for a registered name (a literal), exactly its
 * parameters (server/db/queries.ts), so a misspelt or missing one fails the type check; any
 * `Params` for a name computed at run time.
 */
export type ParamsFor<N extends string> = N extends QueryName ? ParamsOf<N> : Params;

/**
 * The row of a call naming `sql/<N>.sql`: for a query of sql/api/ named by a literal, its columns
 * (server/db/query-rows.ts), so reading a column the SQL does not return fails the type check; a
 * plain {@link Row} otherwise.
 */
export type RowFor<N extends string> = N extends RowQueryName ? RowOf<N> : Row;
