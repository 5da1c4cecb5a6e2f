/**
 * Rows of one shape (`GET /v1/alpha/accounts/search`'s accounts) held in columns: a column whose values
 * are all numbers or null is a `Float64Array` (plus a null mask when it has nulls), any other column a
 * plain array. 90,722 accounts as row objects held ~205 MB of JS heap (every double a boxed heap
 * number, every row its own property store) and peaked at ~440 MB while loading; as columns they take a
 * tenth of that (the RSS target). A row object is rebuilt, identical to the one the SQL gave (same keys
 * in the same order, same values), only for the rows a page returns.
 * Columns whose name starts with `_` come last and are held, not served: a rebuilt row leaves
 * them out (the exact parts behind `GET /v1/alpha/accounts/stats`'s totals, sql/schema/read-macros.sql).
 */
import type { Row } from '../../db/database.ts';
import type { Plain } from '../../db/values.ts';

type Column = { kind: 'number'; values: Float64Array; nulls: Uint8Array | null } | { kind: 'plain'; values: Plain[] };

/** A column under construction: numbers until a value is neither a number nor null. */
class ColumnBuilder {
  private numbers: Float64Array = new Float64Array(1024);
  private nulls: Uint8Array | null = null;
  private plain: Plain[] | null = null;
  length = 0;

  push(v: Plain): void {
    const i = this.length++;
    if (this.plain) {
      this.plain.push(v);
      return;
    }
    if (typeof v === 'number' || v === null) {
      if (i === this.numbers.length) {
        const grown = new Float64Array(this.numbers.length * 2);
        grown.set(this.numbers);
        this.numbers = grown;
        if (this.nulls) {
          const n = new Uint8Array(grown.length);
          n.set(this.nulls);
          this.nulls = n;
        }
      }
      if (v === null) (this.nulls ??= new Uint8Array(this.numbers.length))[i] = 1;
      else this.numbers[i] = v;
      return;
    }
    // first non-number: this column is plain from now on
    this.plain = [];
    for (let j = 0; j < i; j++) this.plain.push(this.nulls?.[j] ? null : this.numbers[j]!);
    this.plain.push(v);
  }

  build(): Column {
    if (this.plain) return { kind: 'plain', values: this.plain };
    return { kind: 'number', values: this.numbers.slice(0, this.length), nulls: this.nulls?.slice(0, this.length) ?? null };
  }
}

/** Collects rows (e.g. chunk by chunk as DuckDB reads them) into an {@link AccountTable}. */
export class AccountTableBuilder {
  private names: string[] | null = null;
  private columns: ColumnBuilder[] = [];
  private count = 0;

  /** Rows added so far. */
  get size(): number {
    return this.count;
  }

  /** Adds rows; every row must have the keys of the first, in the same order. */
  addRows(rows: readonly Row[]): void {
    for (const row of rows) {
      if (!this.names) {
        this.names = Object.keys(row);
        this.columns = this.names.map(() => new ColumnBuilder());
      }
      const names = this.names;
      for (let c = 0; c < names.length; c++) this.columns[c]!.push(row[names[c]!] ?? null);
      this.count++;
    }
  }

  build(): AccountTable {
    return new AccountTable(
      this.names ?? [],
      this.columns.map((c) => c.build()),
      this.count,
    );
  }
}

/**
 * See the file comment. Changed in place by {@link AccountTable.apply} (an append's patch): its
 * readers (the searches of `GET /v1/alpha/accounts/search`, the lookups of
 * `GET /v1/alpha/accounts/{address}`) read it synchronously, never across an await, so
 * none sees a patch half done.
 */
export class AccountTable {
  /** how many leading columns a rebuilt row has (the rest are `_` columns) */
  private served = 0;

  /** `names` may be empty only with no rows (a query that returned none): the first rows applied name the columns. */
  constructor(
    private names: string[],
    private readonly columns: Column[],
    private rows: number,
  ) {
    this.name(names);
  }

  private name(names: string[]): void {
    const firstHeld = names.findIndex((n) => n.startsWith('_'));
    this.served = firstHeld < 0 ? names.length : firstHeld;
    if (names.slice(this.served).some((n) => !n.startsWith('_'))) throw new Error('account table: held (`_`) columns must come last');
    this.names = names;
  }

  /** Rows held. */
  get length(): number {
    return this.rows;
  }

  private columnOf(name: string): Column {
    // a table that has never had a row has no columns: every one is empty
    if (this.names.length === 0) return { kind: 'plain', values: [] };
    const c = this.names.indexOf(name);
    if (c < 0) throw new Error(`account table: no column ${name}`);
    return this.columns[c]!;
  }

  /** number columns with nulls, as NaN where null (kept up to date by {@link apply}) */
  private readonly withNaN = new Map<string, Float64Array>();

  /** A number column's values (NaN where null), for sorting and filtering; valid until the next {@link apply}. */
  numbers(name: string): Float64Array {
    if (this.names.length === 0) return new Float64Array(0);
    const col = this.columnOf(name);
    if (col.kind !== 'number') throw new Error(`account table: column ${name} is not numeric`);
    if (!col.nulls) return col.values.length === this.rows ? col.values : col.values.subarray(0, this.rows);
    let out = this.withNaN.get(name);
    if (!out || out.length !== this.rows) {
      const { values, nulls } = col;
      out = new Float64Array(this.rows);
      for (let i = 0; i < this.rows; i++) out[i] = nulls[i] ? NaN : values[i]!;
      this.withNaN.set(name, out);
    }
    return out;
  }

  /** A column's values as strings (e.g. the addresses); valid until the next {@link apply}. */
  strings(name: string): string[] {
    const col = this.columnOf(name);
    if (col.kind !== 'plain') throw new Error(`account table: column ${name} is not a string column`);
    return col.values as string[];
  }

  /** The value of column `c` in row `i`. */
  private valueAt(c: number, i: number): Plain {
    const col = this.columns[c]!;
    return col.kind === 'plain' ? col.values[i]! : col.nulls?.[i] ? null : col.values[i]!;
  }

  /**
   * Sets the rows at the indices of `replaced` to its rows and appends `added` (rows of the same
   * keys): how an append's patch changes a few accounts. Every other row keeps its index and
   * nothing is copied but the changed values (a number column grows by doubling). Copying every
   * column per patch instead allocates tens of MB per live append, and requests wait for the patch
   * (docs/performance.md, "Account patches in place").
   */
  apply(replaced: ReadonlyMap<number, Row>, added: readonly Row[]): void {
    if (this.names.length === 0 && added.length > 0) {
      // the first rows of a table loaded empty: they name the columns, each starting as numbers
      this.name(Object.keys(added[0]!));
      for (const _ of this.names) this.columns.push({ kind: 'number', values: new Float64Array(0), nulls: null });
    }
    const n = this.rows + added.length;
    const changes: [number, Row][] = [...replaced, ...added.map((row, k): [number, Row] => [this.rows + k, row])];
    this.names.forEach((name, c) => {
      const col = this.columns[c]!;
      const cellOf = (row: Row): Plain => row[name] ?? null;
      // a value that is neither a number nor null makes the column plain, as the builder would
      const numeric = col.kind === 'number' && changes.every(([, row]) => typeof cellOf(row) === 'number' || cellOf(row) === null);
      if (col.kind === 'number' && numeric) {
        if (n > col.values.length) {
          const grown = new Float64Array(Math.max(n, col.values.length * 2));
          grown.set(col.values.subarray(0, this.rows));
          col.values = grown;
          if (col.nulls) {
            const nulls = new Uint8Array(grown.length);
            nulls.set(col.nulls.subarray(0, this.rows));
            col.nulls = nulls;
          }
        }
        for (const [i, row] of changes) {
          const v = cellOf(row) as number | null;
          if (v === null && !col.nulls) col.nulls = new Uint8Array(col.values.length);
          if (col.nulls) col.nulls[i] = v === null ? 1 : 0;
          col.values[i] = v ?? 0;
        }
        const cached = this.withNaN.get(name);
        if (cached && n === this.rows) for (const [i] of changes) cached[i] = col.nulls?.[i] ? NaN : col.values[i]!;
        else this.withNaN.delete(name);
        return;
      }
      if (col.kind === 'number') {
        const values: Plain[] = new Array(this.rows);
        for (let i = 0; i < this.rows; i++) values[i] = this.valueAt(c, i);
        this.columns[c] = { kind: 'plain', values };
        this.withNaN.delete(name);
      }
      const plain = (this.columns[c] as { values: Plain[] }).values;
      for (const [i, row] of changes) plain[i] = cellOf(row);
    });
    this.rows = n;
  }

  /** Row `i` as the SQL gave it, without its held (`_`) columns. */
  row(i: number): Row {
    const out: Row = {};
    for (let c = 0; c < this.served; c++) out[this.names[c]!] = this.valueAt(c, i);
    return out;
  }
}
