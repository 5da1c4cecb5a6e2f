/**
 * Rows of one shape (endpoint 13's accounts) held in columns: a column whose values are all
 * numbers or null is a `Float64Array` (plus a null mask when it has nulls), any other column a
 * plain array. 90,722 accounts as row objects held ~205 MB of JS heap (every double a boxed
 * heap number, every row its own property store) and peaked at ~440 MB while loading; as columns
 * they take a tenth of that (issue 7's RSS target). A row object is rebuilt, identical to the
 * one the SQL gave (same keys in the same order, same values), only for the rows a page returns.
 */
import type { Row } from '../db/database.ts';
import type { Plain } from '../db/values.ts';

type Column =
  | { kind: 'number'; values: Float64Array; nulls: Uint8Array | null }
  | { kind: 'plain'; values: Plain[] };

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
    return new AccountTable(this.names ?? [], this.columns.map((c) => c.build()), this.count);
  }
}

/** See the file comment. Immutable once built. */
export class AccountTable {
  constructor(private readonly names: string[], private readonly columns: Column[], readonly length: number) {}

  private columnOf(name: string): Column {
    const c = this.names.indexOf(name);
    if (c < 0) throw new Error(`account table: no column ${name}`);
    return this.columns[c]!;
  }

  private readonly withNaN = new Map<string, Float64Array>();

  /** A number column's values (NaN where null), for sorting and filtering. */
  numbers(name: string): Float64Array {
    const col = this.columnOf(name);
    if (col.kind !== 'number') throw new Error(`account table: column ${name} is not numeric`);
    if (!col.nulls) return col.values;
    let out = this.withNaN.get(name);
    if (!out) this.withNaN.set(name, (out = col.values.map((v, i) => (col.nulls![i] ? NaN : v))));
    return out;
  }

  /** A column's values as strings (e.g. the addresses). */
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
   * A copy of this table with the rows at the indices of `replaced` set to its rows and `added`
   * appended (rows of the same keys): how an append's patch replaces a few accounts. Every other
   * row keeps its index, and a column is copied whole (a memcpy for numbers), not row by row: the
   * row-by-row copy this replaced cost ~50 ms of main thread per live append on the bench journal.
   */
  withRows(replaced: ReadonlyMap<number, Row>, added: readonly Row[]): AccountTable {
    const n = this.length + added.length;
    const changes: [number, Row][] = [...replaced, ...added.map((row, k): [number, Row] => [this.length + k, row])];
    const columns = this.names.map((name, c): Column => {
      const col = this.columns[c]!;
      const valueOf = (row: Row): Plain => row[name] ?? null;
      // a value that is neither a number nor null makes the column plain, as the builder would
      const numeric = col.kind === 'number' && changes.every(([, row]) => typeof valueOf(row) === 'number' || valueOf(row) === null);
      if (col.kind === 'number' && numeric) {
        const values = new Float64Array(n);
        values.set(col.values.subarray(0, this.length));
        let nulls: Uint8Array | null = null;
        if (col.nulls) (nulls = new Uint8Array(n)).set(col.nulls.subarray(0, this.length));
        for (const [i, row] of changes) {
          const v = valueOf(row) as number | null;
          if (v === null) (nulls ??= new Uint8Array(n))[i] = 1;
          else if (nulls) nulls[i] = 0;
          values[i] = v ?? 0;
        }
        return { kind: 'number', values, nulls };
      }
      let values: Plain[];
      if (col.kind === 'plain') values = col.values.slice(0, this.length);
      else {
        values = new Array(this.length);
        for (let i = 0; i < this.length; i++) values[i] = this.valueAt(c, i);
      }
      for (const [i, row] of changes) values[i] = valueOf(row);
      return { kind: 'plain', values };
    });
    return new AccountTable(this.names, columns, n);
  }

  /** Row `i` as the SQL gave it. */
  row(i: number): Row {
    const out: Row = {};
    for (let c = 0; c < this.names.length; c++) out[this.names[c]!] = this.valueAt(c, i);
    return out;
  }
}
