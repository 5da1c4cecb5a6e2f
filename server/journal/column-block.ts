/**
 * A batch of rows in columns: what a source in another thread hands over without cloning
 * millions of objects (typed arrays move between threads for free), and what staging copies
 * into DuckDB one column at a time. The shape belongs to the journal's rows (server/journal/rows.ts
 * carries it in a batch); the encoders live in server/ingest/columns.ts.
 * - numbers (and times, epoch ms): a `Float64Array`; NaN stands for null (a finite number is
 *   required everywhere else, so the two never mix);
 * - repetitive strings (protocol, market, side, …): `codes` into a small `dict`, -1 for null;
 * - near-unique strings (tx, position key): a plain array.
 */
export type Column = Float64Array | CodedStrings | (string | null)[];
export interface CodedStrings {
  codes: Int32Array;
  dict: string[];
}
export interface ColumnBlock {
  length: number;
  columns: Record<string, Column>;
}

export const isCoded = (c: Column): c is CodedStrings => (c as CodedStrings).codes instanceof Int32Array;
