/**
 * Query-parameter schemas shared by the REST endpoints (and, later, by the OpenAPI document and the
 * MCP tool input schemas, generated from these same objects with `@valibot/to-json-schema`).
 *
 * Conventions, so that one schema serves validation and documentation:
 * - Every parameter schema takes the wire form, a string (h3's `getQuery` gives a string, or an
 *   array when a name repeats, which fails "must be given once").
 * - Checks that JSON Schema can express (`picklist`, `regex`, `description`, `metadata`) come
 *   before the first transformation; parsing that it cannot (dates, integers) is a `rawTransform`.
 *   Convert with `toJsonSchema(schema, { typeMode: 'input' })`: conversion stops at the transform.
 *   Integer parameters carry `metadata({ type: 'integer', minimum, maximum })`, so their JSON Schema
 *   says integer (an MCP client sends a number; the MCP layer stringifies it before validating).
 * - Messages are phrased "must …": {@link parseQueryObject} prefixes the parameter name.
 * - Defaults are not in the schemas (a JSON Schema default would be a string); routes apply them,
 *   see {@link pageOf}.
 */
import * as v from 'valibot';
import { getQuery, type H3Event } from 'h3';
import { ApiError } from './errors.ts';

/** A parameter schema: string in, any parsed value out. */
export type ParamSchema = v.GenericSchema<string, unknown>;
/** A query schema: a strict object of optional or required parameter schemas. */
export type QuerySchema = v.StrictObjectSchema<v.ObjectEntries, undefined>;

const ONCE = 'must be given once';

/** Builds a strict query schema: any parameter not listed is a 400 `unknown_parameter`. */
export function querySchema<E extends v.ObjectEntries>(entries: E): v.StrictObjectSchema<E, undefined> {
  return v.strictObject(entries);
}

/** The query schema of an endpoint that takes no parameters. */
export const noQuery = querySchema({});

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2}))?$/;
/** What `from`, `to` (and `simulate --until`) must be. */
export const TIMESTAMP_MESSAGE = 'must be an RFC 3339 timestamp such as 2026-05-01T00:00:00Z or a date such as 2026-05-01';
const EPOCH_MESSAGE = 'must not be an epoch number: use RFC 3339, such as 2026-05-01T00:00:00Z or 2026-05-01';
/**
 * The instants `from` and `to` may name. Answers echo their window as `YYYY-MM-DDTHH:MM:SS.sssZ`,
 * which has no form for a year before 0000 or after 9999 (a `to` of 0000-01-01 would echo a default
 * `from` of "-000001-12-25…"); nothing is stored before 1970 anyway.
 */
const EARLIEST_MS = 0;
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const RANGE_MESSAGE = 'must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z';

/**
 * Parses an RFC 3339 date-time (`Z` or `±HH:MM` offset, optional fraction, truncated to ms) or a
 * bare `YYYY-MM-DD` (= 00:00Z) to epoch milliseconds; `undefined` when malformed or not a real
 * calendar time (February 30th, 24:00).
 */
export function parseTimestamp(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60) return undefined;
  const lastOfMonth = new Date(0);
  lastOfMonth.setUTCFullYear(year, month, 0);
  const daysInMonth = lastOfMonth.getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  return utc.getTime() - offsetMinutes * 60_000;
}

/** `from` / `to`: RFC 3339 or `YYYY-MM-DD` → epoch ms, 1970 to 9999. Epoch numbers get a "use RFC 3339" 400. */
export const timestampParam = v.pipe(
  v.string(ONCE),
  v.description('RFC 3339 date-time with Z or an offset (e.g. 2026-05-01T00:00:00Z), or a date YYYY-MM-DD (= 00:00Z); from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.'),
  v.examples(['2026-05-01T00:00:00Z', '2026-05-01']),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const ms = parseTimestamp(dataset.value);
    if (ms === undefined) {
      addIssue({ message: /^-?\d+(\.\d+)?$/.test(dataset.value) ? EPOCH_MESSAGE : TIMESTAMP_MESSAGE });
      return NEVER;
    }
    if (ms < EARLIEST_MS || ms > LATEST_MS) {
      addIssue({ message: RANGE_MESSAGE });
      return NEVER;
    }
    return ms;
  }),
);

/** Bucket sizes of the fine history endpoints (`GET /v1/alpha/open-interest/history`, `GET /v1/alpha/volume/history`). */
export const FINE_INTERVALS = ['5m', '15m', '1h', '4h', '1d'] as const;
/** Bucket sizes of the coarse history endpoints (`GET /v1/alpha/liquidations/history`, `GET /v1/alpha/funding-rates/history`). */
export const COARSE_INTERVALS = ['1h', '4h', '1d'] as const;
export type FineInterval = (typeof FINE_INTERVALS)[number];
export type CoarseInterval = (typeof COARSE_INTERVALS)[number];

/** `interval` on `GET /v1/alpha/open-interest/history` and `GET /v1/alpha/volume/history`: one of 5m 15m 1h 4h 1d. */
export const fineIntervalParam = v.pipe(v.picklist(FINE_INTERVALS, `must be one of ${FINE_INTERVALS.join(', ')}`), v.description('Bucket size (default 1h); buckets are aligned to the UTC epoch.'));

/** `interval` on `GET /v1/alpha/liquidations/history` and `GET /v1/alpha/funding-rates/history`: one of 1h 4h 1d. */
export const coarseIntervalParam = v.pipe(
  v.picklist(COARSE_INTERVALS, `must be one of ${COARSE_INTERVALS.join(', ')}`),
  v.description('Bucket size (default 1h); buckets are aligned to the UTC epoch.'),
);

/** `order`: asc or desc. */
export const orderParam = v.pipe(v.picklist(['asc', 'desc'], 'must be asc or desc'), v.description('Sort direction (default desc).'));

/**
 * `market`: a grouped market symbol `<INDEX>-PERP`. Matched case-insensitively and returned upper
 * case (`sol-perp` → `SOL-PERP`); well-formed but unknown symbols pass (the endpoint decides).
 */
export const marketParam = v.pipe(
  v.string(ONCE),
  v.regex(/^[A-Za-z0-9]{1,20}-[Pp][Ee][Rr][Pp]$/, 'must be a market symbol such as SOL-PERP'),
  v.description('Grouped market symbol <INDEX>-PERP; covers every variant of that index.'),
  v.examples(['SOL-PERP']),
  v.transform((s: string) => s.toUpperCase()),
);

/** A USD threshold (e.g. `min_size_usd`): a plain non-negative decimal number (no sign, exponent or epoch tricks). */
export function minUsdParam(description: string) {
  return v.pipe(
    v.string(ONCE),
    v.description(description),
    v.metadata({ type: 'number', minimum: 0 }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const n = /^\d{1,15}(\.\d{1,12})?$/.test(dataset.value) ? Number(dataset.value) : NaN;
      if (!(n >= 0 && Number.isFinite(n))) {
        addIssue({ message: 'must be a number >= 0, such as 1000 or 2500.5' });
        return NEVER;
      }
      return n;
    }),
  );
}

/** `market_variant`: a native variant id `<INDEX>/USD[<collateral tokens joined by ->]`, exact case. */
export const marketVariantParam = v.pipe(
  v.string(ONCE),
  v.regex(/^[A-Z0-9]{1,20}\/USD\[[A-Z0-9]{1,20}(-[A-Z0-9]{1,20})*\]$/, 'must be a market variant such as SOL/USD[WSOL-USDC]'),
  v.description('Protocol-native variant id <INDEX>/USD[<collateral tokens joined by ->].'),
  v.examples(['SOL/USD[WSOL-USDC]']),
);

/**
 * An integer parameter in `[min, max]` (decimal digits only: no sign, exponent or fraction).
 * Its JSON Schema says `integer` with the bounds (see the module comment).
 */
export function integerParam(min: number, max: number, description: string) {
  const message = `must be an integer from ${min} to ${max}`;
  return v.pipe(
    v.string(ONCE),
    v.description(description),
    v.metadata({ type: 'integer', minimum: min, maximum: max }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const n = /^\d{1,10}$/.test(dataset.value) ? Number(dataset.value) : NaN;
      if (!(n >= min && n <= max)) {
        addIssue({ message });
        return NEVER;
      }
      return n;
    }),
  );
}

/** Rows per page: at most this many, and the default. */
export const MAX_LIMIT = 500;
/** `offset`: rows to skip, 0 … 1,000,000,000. */
export const offsetParam = integerParam(0, 1_000_000_000, 'Rows to skip (default 0).');
/** `limit`: rows per page, 1 … 500 (default 500). */
export const limitParam = integerParam(1, MAX_LIMIT, `Rows per page, 1-${MAX_LIMIT} (default ${MAX_LIMIT}).`);

/** Offset and limit with their defaults applied (`pagination` echoes both). */
export function pageOf(query: { offset?: number; limit?: number }): { offset: number; limit: number } {
  return { offset: query.offset ?? 0, limit: query.limit ?? MAX_LIMIT };
}

const KEY_PARAMS = new Set(['x-api-key', 'api_key', 'apikey', 'api-key', 'key']);

/** The first issue as the contract's 400: unknown parameters first, then invalid values. */
export function issuesToApiError(issues: readonly v.BaseIssue<unknown>[]): ApiError {
  const keyIssues = issues.filter((i) => i.type === 'strict_object' && i.path?.[0]?.origin === 'key');
  const unknown = keyIssues.find((i) => i.expected === 'never');
  const missing = keyIssues.find((i) => i.expected !== 'never');
  if (unknown) {
    const name = String(unknown.path?.[0]?.key);
    const hint = KEY_PARAMS.has(name.toLowerCase()) ? ' API keys are accepted only in the x-api-key header.' : ' This endpoint does not take it.';
    return new ApiError(400, 'unknown_parameter', `Unknown query parameter '${name}'.${hint}`, name);
  }
  if (missing) {
    const name = String(missing.path?.[0]?.key);
    return new ApiError(400, 'invalid_parameter', `Parameter '${name}' is required.`, name);
  }
  const first = issues[0];
  const name = first?.path?.map((p) => String(p.key)).join('.') || undefined;
  const text = first?.message ?? 'is invalid';
  const message = name === undefined ? `Invalid query: ${text}.` : text.startsWith('must') ? `Parameter '${name}' ${text}.` : `Invalid value for '${name}': ${text}.`;
  return new ApiError(400, 'invalid_parameter', message, name);
}

/**
 * Validates a query object (string values, or string arrays for repeated names) against a query
 * schema; throws the contract's 400 ({@link ApiError}) on failure. Usable outside HTTP (MCP).
 */
export function parseQueryObject<S extends QuerySchema>(schema: S, query: Record<string, unknown>): v.InferOutput<S> {
  const result = v.safeParse(schema, query);
  if (!result.success) throw issuesToApiError(result.issues);
  return result.output;
}

/** Validates the request's query string against `schema` (see {@link parseQueryObject}). */
export function parseQuery<S extends QuerySchema>(event: H3Event, schema: S): v.InferOutput<S> {
  return parseQueryObject(schema, getQuery(event) as Record<string, unknown>);
}

/** Freezes a validated query and what it holds (it is shared by every request with that string). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * {@link parseQuery} for one route, remembering what each query string validated to (validation
 * is a pure function of the string: it reads no clock and no state), so a repeated request skips
 * parsing and valibot (~2 µs of a ~90 µs cached answer). Outputs are frozen; failures are not kept
 * and are thrown anew. At most `max` strings are kept; then the memo starts over.
 */
export function memoizedQueryParser<S extends QuerySchema>(schema: S, max = 1_000): (event: H3Event) => Readonly<v.InferOutput<S>> {
  const memo = new Map<string, Readonly<v.InferOutput<S>>>();
  return (event) => {
    const search = event.url.search;
    let query = memo.get(search);
    if (query === undefined) {
      query = deepFreeze(parseQuery(event, schema));
      if (memo.size >= max) memo.clear();
      memo.set(search, query);
    }
    return query;
  };
}
