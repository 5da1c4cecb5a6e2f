/**
 * Plain rows from DuckDB result chunks, converted a column at a time.
 *
 * Why not `reader.getRowObjects().map(plainRow)`: that builds a DuckDB value object for every cell (a
 * timestamp or a BIGINT is a wrapper around a bigint), tests each NULL bit with BigInt arithmetic, then
 * converts every cell again through {@link toPlain}'s type tests: more than twice the time of the
 * conversion here (docs/performance.md, "Rows from result chunks"). Here each column's type is looked
 * at once: numbers and timestamps are read from the vector's own
 * typed array, NULL bits from its validity bytes, and only strings and the rarer types go through the
 * vector's `getItem` (then {@link toPlain}).
 *
 * The result is exactly what `toPlain` makes of each value (test/db/chunk-rows.test.ts compares both
 * over every type our SQL returns, NULLs and the ±2^53 edges included).
 */
import { DuckDBTypeId, type DuckDBDataChunk, type DuckDBResult, type DuckDBValue, type DuckDBVector } from '@duckdb/node-api';
import { isoFromMicros, toPlain, type Plain } from './values.ts';

/** A row as our SQL results come out: column name → plain value. */
type Row = Record<string, Plain>;

/** The vector parts this file reads: node-api keeps them as public fields of its vector classes. */
interface RawVector {
  items?: ArrayLike<number | bigint>;
  validity?: { data: BigUint64Array | null };
  /** VARCHAR: DuckDB's 16-byte string records (length, then the bytes inline up to 12, else a pointer) */
  dataView?: DataView;
}

/** Whether row `i` is valid (not NULL), from the validity mask's bytes (null: every row is). */
const validAt = (mask: Uint8Array | null, i: number): boolean => mask === null || ((mask[i >> 3]! >> (i & 7)) & 1) === 1;

/** The validity mask of `vector` as bytes (DuckDB's mask is little-endian 64-bit words: bit i is row i). */
function maskOf(vector: DuckDBVector): Uint8Array | null {
  const data = (vector as unknown as RawVector).validity?.data;
  return data ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
}

/** A valid (non-NULL) cell's plain value, by row index. */
type CellReader = (i: number) => Plain;

/** The reader of `vector`'s valid cells, by its type: typed arrays where the vector has them. */
function cellReader(vector: DuckDBVector): CellReader {
  const exact: CellReader = (i) => toPlain(vector.getItem(i) as DuckDBValue);
  const { items, dataView } = vector as unknown as RawVector;
  switch (vector.type.typeId) {
    case DuckDBTypeId.DOUBLE:
    case DuckDBTypeId.FLOAT: {
      const xs = items as ArrayLike<number>;
      return (i) => (Number.isFinite(xs[i]!) ? xs[i]! : null);
    }
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER: {
      const xs = items as ArrayLike<number>;
      return (i) => xs[i]!;
    }
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT: {
      const xs = items as ArrayLike<bigint>;
      return (i) => {
        const x = Number(xs[i]!);
        if (!Number.isSafeInteger(x)) throw new RangeError(`integer ${xs[i]} exceeds 2^53`);
        return x;
      };
    }
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ: {
      const xs = items as ArrayLike<bigint>;
      return (i) => {
        const us = Number(xs[i]!);
        // past 2^53 µs (infinity's sentinel among them) the exact path decides, as toPlain does
        return Number.isSafeInteger(us) ? isoFromMicros(us) : exact(i);
      };
    }
    case DuckDBTypeId.VARCHAR: {
      // strings of up to 12 bytes (protocol, side, market, status...) sit in the record itself:
      // decoded here in one native call each; longer ones live behind a pointer, which only the
      // vector's own getItem can follow
      if (!dataView) return exact;
      const records = Buffer.from(dataView.buffer, dataView.byteOffset, dataView.byteLength);
      return (i) => {
        const at = i * 16;
        const length = records.readUInt32LE(at);
        return length <= 12 ? records.toString('utf8', at + 4, at + 4 + length) : (vector.getItem(i) as string);
      };
    }
    case DuckDBTypeId.BOOLEAN:
      return (i) => vector.getItem(i) as Plain; // already plain
    default:
      return exact;
  }
}

/** The column's values, plain, for `n` rows (NULL cells null). */
function columnValues(vector: DuckDBVector, n: number): Plain[] {
  const out = new Array<Plain>(n);
  const mask = maskOf(vector);
  const read = cellReader(vector);
  for (let i = 0; i < n; i++) out[i] = validAt(mask, i) ? read(i) : null;
  return out;
}

/**
 * Appends the rows of `chunk` (column names `names`, in order) to `out` as plain rows: the keys in
 * column order, every value as {@link toPlain} converts it.
 */
export function appendPlainRows(chunk: DuckDBDataChunk, names: readonly string[], out: Row[]): void {
  const n = chunk.rowCount;
  const columns: Plain[][] = [];
  for (let c = 0; c < names.length; c++) columns.push(columnValues(chunk.getColumnVector(c), n));
  for (let i = 0; i < n; i++) {
    const row: Row = {};
    for (let c = 0; c < names.length; c++) row[names[c]!] = columns[c]![i]!;
    out.push(row);
  }
}

/** Every row of `result` as plain rows (see {@link appendPlainRows}), reading its chunks in order. */
export async function plainRowsOf(result: DuckDBResult): Promise<Row[]> {
  const names = result.columnNames();
  const out: Row[] = [];
  for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) appendPlainRows(chunk, names, out);
  return out;
}
