/**
 * Market snapshot rows written straight into columns: every variant, every minute from
 * `snapshotsFrom`, ~3.3M rows in the default backfill. As objects they were ~40 % of the
 * simulation's CPU (making them, packing them into columns for the main thread, and collecting
 * them: `npm run bench:simulation`, 12-14 → 6.5-8 CPU-s without them), while the append path
 * stages columns anyway (server/journal/stage.ts). The live mode and tests still get rows:
 * `Simulator.batches` decodes the block with `marketSnapshotsOf` unless asked for columns.
 */
import type { ColumnBlock } from '../../ingest/columns.ts';
import { MARKET_SNAPSHOT_COLUMNS } from '../../journal/rows.ts';
import { VARIANTS } from './markets.ts';

/** The number columns, in the journal's column order. */
const NUMBER_NAMES = MARKET_SNAPSHOT_COLUMNS.filter(([, type]) => type !== 'VARCHAR').map(([name]) => name);

/** Per variant (by `idx`), its code in each string column's dictionary. */
function dictionary(fieldOf: (v: (typeof VARIANTS)[number]) => string | null): { dict: string[]; codeOf: Int32Array } {
  const dict: string[] = [];
  const codeOf = Int32Array.from(VARIANTS, (v) => {
    const value = fieldOf(v);
    if (value === null) return -1;
    const at = dict.indexOf(value);
    return at >= 0 ? at : dict.push(value) - 1;
  });
  return { dict, codeOf };
}
const PROTOCOL = dictionary((v) => v.protocol);
const MARKET = dictionary((v) => v.market);
const VARIANT = dictionary((v) => v.variant);
/** every simulated index price comes from the simulator's own price path */
const INDEX_SOURCE = dictionary(() => 'simulated');

/** Growable columns of market snapshot rows; `row` adds one, whose numbers the caller then sets. */
export class MarketColumns {
  private n = 0;
  private cap = 0;
  private variant = new Int32Array(0);
  /** one array per number column, by name (see {@link NUMBER_NAMES}); valid up to `length` */
  readonly col: Record<string, Float64Array> = Object.fromEntries(NUMBER_NAMES.map((n) => [n, new Float64Array(0)]));

  get length(): number {
    return this.n;
  }

  /** Adds a row of variant `variantIdx` and returns its index (set its numbers in {@link col}). */
  row(variantIdx: number): number {
    if (this.n === this.cap) this.grow();
    this.variant[this.n] = variantIdx;
    return this.n++;
  }

  private grow(): void {
    this.cap = Math.max(1024, this.cap * 2);
    const variant = new Int32Array(this.cap);
    variant.set(this.variant);
    this.variant = variant;
    for (const name of NUMBER_NAMES) {
      const next = new Float64Array(this.cap);
      next.set(this.col[name]!);
      this.col[name] = next;
    }
  }

  /** Drops the rows so far (the buffers stay for the next ones). */
  clear(): void {
    this.n = 0;
  }

  /** The rows so far as a column block (own, exact-length buffers, transferable), and empties. */
  take(): ColumnBlock {
    const n = this.n;
    const codes = (map: Int32Array): Int32Array => {
      // a plain loop: Int32Array.from with a mapper was ~1.2 s of a default backfill's worker
      const out = new Int32Array(n);
      for (let i = 0; i < n; i++) out[i] = map[this.variant[i]!]!;
      return out;
    };
    const columns: ColumnBlock['columns'] = {};
    for (const [name, type] of MARKET_SNAPSHOT_COLUMNS) {
      if (type !== 'VARCHAR') columns[name] = this.col[name]!.slice(0, n);
      else {
        const { dict, codeOf } = name === 'protocol' ? PROTOCOL : name === 'market' ? MARKET : name === 'market_variant' ? VARIANT : INDEX_SOURCE;
        columns[name] = { codes: codes(codeOf), dict: [...dict] };
      }
    }
    this.clear();
    return { length: n, columns };
  }
}
