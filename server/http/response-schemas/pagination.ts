/** The pagination record of offset-paged answers. */
import * as v from 'valibot';
import { MAX_LIMIT } from '../params.ts';
import { count, described } from './scalars.ts';

/** Offset pagination (contract: `limit` 1-500 echoed). */
export const Pagination = v.strictObject({
  limit: described(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_LIMIT)), `Rows per page applied (the \`limit\` parameter, 1-${MAX_LIMIT}, default ${MAX_LIMIT}).`),
  offset: described(count, 'Rows skipped (the `offset` parameter, default 0).'),
  total: described(count, 'Rows matching the query, ignoring limit and offset.'),
});
