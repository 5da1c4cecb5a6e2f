import { DuckDBDateValue, DuckDBDecimalValue, DuckDBListValue, DuckDBStructValue, DuckDBTimestampTZValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';

/** A JSON-ready value: what our SQL results become before they reach a response. */
export type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };

/** Formats epoch milliseconds as the contract's timestamp: `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export function isoFromMs(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Formats epoch microseconds as the contract's timestamp, truncated toward zero to the millisecond
 * as {@link toPlain}'s `micros / 1000n` is (exact for |us| < 2^53: the steps are integer ones).
 */
export function isoFromMicros(us: number): string {
  return isoFromMs((us - (us % 1000)) / 1000);
}

/**
 * Converts one DuckDB value to plain JSON-ready JS, explicitly (the library's JSON conversion
 * turns BIGINT into strings and timestamps into a non-ISO form):
 * BIGINT/HUGEINT → number (throws past 2^53 rather than silently rounding), DECIMAL → number,
 * TIMESTAMP → ISO string with milliseconds, LIST → array, STRUCT → object.
 */
export function toPlain(value: DuckDBValue): Plain {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint': {
      const n = Number(value);
      if (!Number.isSafeInteger(n)) throw new RangeError(`integer ${value} exceeds 2^53`);
      return n;
    }
  }
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  if (value instanceof DuckDBTimestampValue || value instanceof DuckDBTimestampTZValue) {
    return isoFromMs(Number(value.micros / 1000n));
  }
  if (value instanceof DuckDBDateValue) return isoFromMs(value.days * 86_400_000);
  if (value instanceof DuckDBListValue) return value.items.map(toPlain);
  if (value instanceof DuckDBStructValue) {
    const out: Record<string, Plain> = {};
    for (const [k, v] of Object.entries(value.entries)) out[k] = toPlain(v);
    return out;
  }
  return String(value);
}

/** Converts a row of DuckDB values with {@link toPlain}. */
export function plainRow(row: Record<string, DuckDBValue>): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const key in row) out[key] = toPlain(row[key] as DuckDBValue);
  return out;
}
