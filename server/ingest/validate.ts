import { isCoded, type Column, type ColumnBlock } from './columns.ts';
import { FILL_TYPES, INDEX_PRICE_SOURCES, MARKET_SNAPSHOT_COLUMNS, PROTOCOLS, type IncomingBatch, type IncomingFill, type MarketSnapshot } from '../journal/rows.ts';

/** A batch a source produced that the journal must not take. */
export class InvalidBatchError extends Error {
  override name = 'InvalidBatchError';
}

const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const finiteOrNull = (v: unknown): boolean => v === null || finite(v);
const text = (v: unknown): boolean => typeof v === 'string' && v.length > 0;

const FILL_NUMBERS = [
  'time',
  'slot',
  'event_index',
  'size_delta_usd',
  'position_size_usd',
  'collateral_delta_usd',
  'position_collateral_usd',
  'price',
  'entry_price',
  'pnl_delta_usd',
  'fee_usd',
  'fee_total_usd',
  'index_price',
] as const;
const FILL_NULLABLE = ['borrowing_fee_usd', 'funding_fee_usd', 'liquidation_fee_usd', 'funding_earned_usd', 'position_entry_price'] as const;
const FILL_TEXT = ['tx', 'position_key', 'address', 'market'] as const;
const SNAPSHOT_NUMBERS = MARKET_SNAPSHOT_COLUMNS.map(([n]) => n).filter(
  (n) => n !== 'protocol' && n !== 'market' && n !== 'market_variant' && n !== 'index_price_time' && n !== 'index_price_source',
) as (keyof MarketSnapshot)[];

/** What is wrong with a fill, or undefined. */
function fillProblem(f: IncomingFill): string | undefined {
  if (!PROTOCOLS.includes(f.protocol)) return `unknown protocol ${String(f.protocol)}`;
  if (!FILL_TYPES.includes(f.type)) return `unknown type ${String(f.type)}`;
  if (f.side !== 'long' && f.side !== 'short') return `unknown side ${String(f.side)}`;
  for (const k of FILL_NUMBERS) if (!finite(f[k])) return `${k} is not a finite number`;
  for (const k of FILL_NULLABLE) if (!finiteOrNull(f[k])) return `${k} is not a number or null`;
  for (const k of FILL_TEXT) if (!text(f[k])) return `${k} is empty`;
  if (f.market_variant !== null && !text(f.market_variant)) return 'market_variant is empty';
  if (f.collateral_token !== null && !text(f.collateral_token)) return 'collateral_token is empty';
  return undefined;
}

/**
 * Checks every row of a batch before anything is written, so a source bug fails loudly instead
 * of putting NaN, a wrong enum or a missing key into the journal (which is append-only).
 */
export function validateBatch(batch: IncomingBatch): void {
  // rows decoded from column mirrors: checking the columns (tight loops over typed arrays and
  // small dictionaries) proves the rows valid; on any doubt the row checks below name the problem
  const fillsOk = batch.mirrors !== undefined && columnsPass(batch.mirrors.fills, batch.fills.length, FILL_SPEC);
  const snapshotsOk = batch.mirrors !== undefined && columnsPass(batch.mirrors.positionSnapshots, batch.positionSnapshots.length, POSITION_SNAPSHOT_SPEC);
  // plain loops, no closure per row: this runs over every row of a backfill
  for (let i = 0; !fillsOk && i < batch.fills.length; i++) {
    const problem = fillProblem(batch.fills[i]!);
    if (problem) {
      const f = batch.fills[i]!;
      throw new InvalidBatchError(`fill ${i} (${String(f.tx)}#${String(f.event_index)}): ${problem}`);
    }
  }
  batch.marketSnapshots.forEach((s, i) => {
    if (!PROTOCOLS.includes(s.protocol)) throw new InvalidBatchError(`market snapshot ${i}: unknown protocol`);
    if (!text(s.market)) throw new InvalidBatchError(`market snapshot ${i}: market is empty`);
    for (const k of SNAPSHOT_NUMBERS) if (!finite(s[k])) throw new InvalidBatchError(`market snapshot ${i}: ${k} is not a finite number`);
    if (!finiteOrNull(s.index_price_time)) throw new InvalidBatchError(`market snapshot ${i}: index_price_time is not a number or null`);
    if (s.index_price_source !== null && !INDEX_PRICE_SOURCES.includes(s.index_price_source)) {
      throw new InvalidBatchError(`market snapshot ${i}: unknown index_price_source ${String(s.index_price_source)}`);
    }
  });
  if (batch.marketSnapshotColumns) validateMarketSnapshotColumns(batch.marketSnapshotColumns, batch.marketSnapshots.length);
  for (let i = 0; !snapshotsOk && i < batch.positionSnapshots.length; i++) {
    const s = batch.positionSnapshots[i]!;
    if (!PROTOCOLS.includes(s.protocol)) throw new InvalidBatchError(`position snapshot ${i}: unknown protocol`);
    if (s.source !== 'event' && s.source !== 'poll') throw new InvalidBatchError(`position snapshot ${i}: unknown source`);
    if (!text(s.position_key)) throw new InvalidBatchError(`position snapshot ${i}: position_key is empty`);
    if (!finiteOrNull(s.liquidation_price)) throw new InvalidBatchError(`position snapshot ${i}: liquidation_price is not a number or null`);
  }
}

/** The checks of market snapshot rows, on a column block (tight loops over typed arrays). */
function validateMarketSnapshotColumns(b: ColumnBlock, rows: number): void {
  const bad = (what: string) => new InvalidBatchError(`market snapshot columns: ${what}`);
  if (rows > 0 && b.length > 0) throw bad('a batch has its market snapshots either as rows or as columns, not both');
  const stringsOf = (name: string, nullable: boolean, allowed?: readonly string[]): void => {
    const c = b.columns[name];
    if (!c || !isCoded(c) || c.codes.length !== b.length) throw bad(`${name} is not a coded string column of ${b.length} rows`);
    c.dict.forEach((s) => {
      if (!text(s) || (allowed && !allowed.includes(s))) throw bad(`${name} has an invalid value ${JSON.stringify(s)}`);
    });
    for (const code of c.codes) if (code >= c.dict.length || code < (nullable ? -1 : 0)) throw bad(`${name} has a bad code ${code}`);
  };
  stringsOf('protocol', false, PROTOCOLS);
  stringsOf('market', false);
  stringsOf('market_variant', true);
  stringsOf('index_price_source', true, INDEX_PRICE_SOURCES);
  const indexTime = b.columns.index_price_time;
  if (!(indexTime instanceof Float64Array) || indexTime.length !== b.length) throw bad(`index_price_time is not a number column of ${b.length} rows`);
  for (let i = 0; i < indexTime.length; i++) if (indexTime[i] === Infinity || indexTime[i] === -Infinity) throw bad(`row ${i}: index_price_time is infinite`);
  for (const k of SNAPSHOT_NUMBERS) {
    const c = b.columns[k];
    if (!(c instanceof Float64Array) || c.length !== b.length) throw bad(`${k} is not a number column of ${b.length} rows`);
    for (let i = 0; i < c.length; i++) if (!Number.isFinite(c[i])) throw bad(`row ${i}: ${k} is not a finite number`);
  }
}

/** What {@link columnsPass} checks: the same as the row checks, column by column. */
interface ColumnSpec {
  numbers: readonly string[];
  nullableNumbers: readonly string[];
  /** non-empty strings, or null where `nullableText` */
  text: readonly string[];
  nullableText: readonly string[];
  /** strings from a fixed list */
  enums: Readonly<Record<string, readonly string[]>>;
}
const FILL_SPEC: ColumnSpec = {
  numbers: FILL_NUMBERS,
  nullableNumbers: FILL_NULLABLE,
  text: FILL_TEXT,
  nullableText: ['market_variant', 'collateral_token'],
  enums: { protocol: PROTOCOLS, type: FILL_TYPES, side: ['long', 'short'] },
};
const POSITION_SNAPSHOT_SPEC: ColumnSpec = {
  numbers: [],
  nullableNumbers: ['liquidation_price'],
  text: ['position_key'],
  nullableText: [],
  enums: { protocol: PROTOCOLS, source: ['event', 'poll'] },
};

/** Every value of a string column passes `ok` (null included, as `ok(null)`). */
function stringsPass(c: Column | undefined, n: number, ok: (s: string | null) => boolean): boolean {
  if (c === undefined || c instanceof Float64Array) return false;
  if (!isCoded(c)) {
    if (c.length !== n) return false;
    for (let i = 0; i < n; i++) if (!ok(c[i] ?? null)) return false;
    return true;
  }
  const { codes, dict } = c;
  if (codes.length !== n || !dict.every((d) => ok(d))) return false;
  const min = ok(null) ? -1 : 0;
  for (let i = 0; i < n; i++) if (codes[i]! < min || codes[i]! >= dict.length) return false;
  return true;
}

/** True when a mirror block of `n` rows passes every check of `spec` (false: let the row checks decide). */
function columnsPass(b: ColumnBlock, n: number, spec: ColumnSpec): boolean {
  if (b.length !== n) return false;
  for (const name of spec.numbers) {
    const c = b.columns[name];
    if (!(c instanceof Float64Array) || c.length !== n) return false;
    for (let i = 0; i < n; i++) if (!Number.isFinite(c[i])) return false;
  }
  for (const name of spec.nullableNumbers) {
    const c = b.columns[name];
    if (!(c instanceof Float64Array) || c.length !== n) return false;
    for (let i = 0; i < n; i++) if (c[i] === Infinity || c[i] === -Infinity) return false; // NaN is null
  }
  const nonEmpty = (s: string | null) => typeof s === 'string' && s.length > 0;
  for (const name of spec.text) if (!stringsPass(b.columns[name], n, nonEmpty)) return false;
  for (const name of spec.nullableText) if (!stringsPass(b.columns[name], n, (s) => s === null || nonEmpty(s))) return false;
  for (const [name, allowed] of Object.entries(spec.enums)) {
    if (!stringsPass(b.columns[name], n, (s) => s !== null && allowed.includes(s))) return false;
  }
  return true;
}
