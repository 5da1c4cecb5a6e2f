import type { IncomingFill, IncomingPositionSnapshot, MarketSnapshot } from '../journal/rows.ts';
import { isCoded, type Column, type CodedStrings, type ColumnBlock } from '../journal/column-block.ts';

/** The column-block shape (the journal's, ../journal/column-block.ts), beside its encoders below. */
export { isCoded, type Column, type CodedStrings, type ColumnBlock };

/** Strings nearly unique per row: a dictionary would only add work, so they stay as they are. */
export const DIRECT_STRINGS: ReadonlySet<string> = new Set(['tx']);

type Encoder = (chunks: readonly (readonly object[])[], n: number) => Record<string, Column>;
const encoders = new Map<string, Encoder>();

/**
 * An encoder for one column list, compiled once: reading `row.time`, `row.price`, … by name in
 * generated code keeps every property access monomorphic, where a loop over column names would
 * do a keyed lookup per value (several times slower over millions of rows). Names come from
 * rows.ts, never from input.
 */
function encoderOf(cols: readonly (readonly [string, string])[]): Encoder {
  const key = cols.map(([n, t]) => `${n}:${t}`).join(',');
  let enc = encoders.get(key);
  if (enc) return enc;
  for (const [name] of cols) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`column name ${name}`);
  const init: string[] = [];
  const step: string[] = [];
  const out: string[] = [];
  cols.forEach(([name, type], c) => {
    if (type !== 'VARCHAR') {
      init.push(`const c${c} = new Float64Array(n);`);
      step.push(`{ const v = r.${name}; c${c}[i] = v === null || v === undefined ? NaN : v; }`);
      out.push(`${name}: c${c}`);
    } else if (DIRECT_STRINGS.has(name)) {
      init.push(`const c${c} = new Array(n);`);
      step.push(`c${c}[i] = r.${name} ?? null;`);
      out.push(`${name}: c${c}`);
    } else {
      init.push(`const c${c} = new Int32Array(n), m${c} = new Map(), d${c} = [];`);
      step.push(
        `{ const v = r.${name}; if (v === null || v === undefined) c${c}[i] = -1; else { let k = m${c}.get(v); ` + `if (k === undefined) { k = d${c}.push(v) - 1; m${c}.set(v, k); } c${c}[i] = k; } }`,
      );
      out.push(`${name}: { codes: c${c}, dict: d${c} }`);
    }
  });
  const body = `${init.join('\n')}
let i = 0;
for (const rows of chunks) for (let j = 0; j < rows.length; j++, i++) { const r = rows[j];
${step.join('\n')}
}
return { ${out.join(', ')} };`;
  enc = new Function('chunks', 'n', body) as Encoder;
  encoders.set(key, enc);
  return enc;
}

/**
 * Turns rows into a block with the given columns (`[name, DuckDB type]`): VARCHAR columns are
 * coded unless listed in {@link DIRECT_STRINGS}, everything else is a number. The rows may come
 * in several arrays (`chunks`, concatenated in order) to save concatenating them first.
 */
export function toColumns(rows: readonly object[] | readonly (readonly object[])[], cols: readonly (readonly [string, string])[], chunked = false): ColumnBlock {
  const chunks = (chunked ? rows : [rows]) as readonly (readonly object[])[];
  let n = 0;
  for (const c of chunks) n += c.length;
  return { length: n, columns: encoderOf(cols)(chunks, n) };
}

/**
 * Concatenates blocks of the same columns (e.g. one per simulated day) into one: number columns
 * are copied, coded columns re-coded onto one merged dictionary. Packing each day as soon as it
 * is made lets its row objects die young (cheap for V8's scavenger), where holding a whole group
 * of objects until it is packed promoted them all to the old generation first.
 */
export function concatBlocks(blocks: readonly ColumnBlock[]): ColumnBlock {
  if (blocks.length === 1) return blocks[0]!;
  let n = 0;
  for (const b of blocks) n += b.length;
  const columns: Record<string, Column> = {};
  for (const name of Object.keys(blocks[0]?.columns ?? {})) {
    const parts = blocks.map((b) => b.columns[name]!);
    const first = parts[0]!;
    if (first instanceof Float64Array) {
      const out = new Float64Array(n);
      let at = 0;
      for (const [i, p] of parts.entries()) {
        out.set(p as Float64Array, at);
        at += blocks[i]!.length;
      }
      columns[name] = out;
    } else if (isCoded(first)) {
      const codes = new Int32Array(n);
      const dict: string[] = [];
      const index = new Map<string, number>();
      let at = 0;
      for (const p of parts as CodedStrings[]) {
        const remap = Int32Array.from(p.dict, (s) => index.get(s) ?? (index.set(s, dict.push(s) - 1), dict.length - 1));
        for (let i = 0; i < p.codes.length; i++) {
          const k = p.codes[i]!;
          codes[at + i] = k < 0 ? -1 : remap[k]!;
        }
        at += p.codes.length;
      }
      columns[name] = { codes, dict };
    } else {
      columns[name] = ([] as (string | null)[]).concat(...(parts as (string | null)[][]));
    }
  }
  return { length: n, columns };
}

/** The buffers of a block, to transfer (not copy) it to another thread. */
export function transferList(block: ColumnBlock): ArrayBuffer[] {
  return Object.values(block.columns).flatMap((c) => (c instanceof Float64Array ? [c.buffer as ArrayBuffer] : isCoded(c) ? [c.codes.buffer as ArrayBuffer] : []));
}

function numbers(block: ColumnBlock, name: string): Float64Array {
  const c = block.columns[name];
  if (!(c instanceof Float64Array)) throw new Error(`column block: ${name} is not a number column`);
  return c;
}
function strings(block: ColumnBlock, name: string): (i: number) => string | null {
  const c = block.columns[name];
  if (c === undefined || c instanceof Float64Array) throw new Error(`column block: ${name} is not a string column`);
  if (!isCoded(c)) return (i) => c[i] ?? null;
  const { codes, dict } = c;
  return (i) => (codes[i]! < 0 ? null : dict[codes[i]!]!);
}
const nullable = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** Fill rows of a block made by {@link toColumns} from fills (the append path needs objects). */
export function fillsOf(b: ColumnBlock): IncomingFill[] {
  const [protocol, tx, key, address, market, variant, side, type, token] = ['protocol', 'tx', 'position_key', 'address', 'market', 'market_variant', 'side', 'type', 'collateral_token'].map((n) =>
    strings(b, n),
  );
  const [time, slot, ev, sizeD, size, collD, coll, price, entry, pnl, fee, borrow, funding, liq, earned, feeTotal, index, ownEntry] = [
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
    'borrowing_fee_usd',
    'funding_fee_usd',
    'liquidation_fee_usd',
    'funding_earned_usd',
    'fee_total_usd',
    'index_price',
    'position_entry_price',
  ].map((n) => numbers(b, n)) as Float64Array[];
  const out: IncomingFill[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) {
    out[i] = {
      protocol: protocol!(i) as IncomingFill['protocol'],
      time: time![i]!,
      slot: slot![i]!,
      tx: tx!(i)!,
      event_index: ev![i]!,
      position_key: key!(i)!,
      address: address!(i)!,
      market: market!(i)!,
      market_variant: variant!(i),
      side: side!(i) as IncomingFill['side'],
      type: type!(i) as IncomingFill['type'],
      size_delta_usd: sizeD![i]!,
      position_size_usd: size![i]!,
      collateral_delta_usd: collD![i]!,
      position_collateral_usd: coll![i]!,
      price: price![i]!,
      entry_price: entry![i]!,
      pnl_delta_usd: pnl![i]!,
      fee_usd: fee![i]!,
      borrowing_fee_usd: nullable(borrow![i]!),
      funding_fee_usd: nullable(funding![i]!),
      liquidation_fee_usd: nullable(liq![i]!),
      funding_earned_usd: nullable(earned![i]!),
      fee_total_usd: feeTotal![i]!,
      index_price: index![i]!,
      collateral_token: token!(i),
      position_entry_price: nullable(ownEntry![i]!),
      // set by the append path: present from the start, the objects keep one shape (no growth per row)
      seq: 0,
      position_id: 0,
    } as IncomingFill;
  }
  return out;
}

/** Position snapshot rows of a block made by {@link toColumns} from position snapshots. */
export function positionSnapshotsOf(b: ColumnBlock): IncomingPositionSnapshot[] {
  const [protocol, key, source] = ['protocol', 'position_key', 'source'].map((n) => strings(b, n));
  const [time, size, coll, borrow, funding, claim, mark, liq] = [
    'time',
    'size_usd',
    'collateral_usd',
    'unsettled_borrowing_usd',
    'unsettled_funding_usd',
    'claimable_funding_usd',
    'mark_price',
    'liquidation_price',
  ].map((n) => numbers(b, n)) as Float64Array[];
  const out: IncomingPositionSnapshot[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) {
    out[i] = {
      time: time![i]!,
      protocol: protocol!(i) as IncomingPositionSnapshot['protocol'],
      position_key: key!(i)!,
      size_usd: size![i]!,
      collateral_usd: coll![i]!,
      unsettled_borrowing_usd: borrow![i]!,
      unsettled_funding_usd: funding![i]!,
      claimable_funding_usd: claim![i]!,
      mark_price: mark![i]!,
      liquidation_price: nullable(liq![i]!),
      source: source!(i) as IncomingPositionSnapshot['source'],
      position_id: 0, // set by the append path (see fillsOf)
    } as IncomingPositionSnapshot;
  }
  return out;
}

/** Market snapshot rows of a block with the journal's market snapshot columns (e.g. the simulator's). */
export function marketSnapshotsOf(b: ColumnBlock): MarketSnapshot[] {
  const [protocol, market, variant, indexSource] = ['protocol', 'market', 'market_variant', 'index_price_source'].map((n) => strings(b, n));
  const [time, index, oiL, oiS, frL, frS, brL, brS, raw, cbL, cbS, cfpL, cfpS, cfeL, cfeS, indexTime] = [
    'time',
    'index_price',
    'oi_long_usd',
    'oi_short_usd',
    'funding_rate_long',
    'funding_rate_short',
    'borrowing_rate_long',
    'borrowing_rate_short',
    'funding_rate_raw',
    'cum_borrowing_long',
    'cum_borrowing_short',
    'cum_funding_paid_long',
    'cum_funding_paid_short',
    'cum_funding_earned_long',
    'cum_funding_earned_short',
    'index_price_time',
  ].map((n) => numbers(b, n)) as Float64Array[];
  const out: MarketSnapshot[] = new Array(b.length);
  for (let i = 0; i < b.length; i++) {
    out[i] = {
      time: time![i]!,
      protocol: protocol!(i) as MarketSnapshot['protocol'],
      market: market!(i)!,
      market_variant: variant!(i),
      index_price: index![i]!,
      oi_long_usd: oiL![i]!,
      oi_short_usd: oiS![i]!,
      funding_rate_long: frL![i]!,
      funding_rate_short: frS![i]!,
      borrowing_rate_long: brL![i]!,
      borrowing_rate_short: brS![i]!,
      funding_rate_raw: raw![i]!,
      cum_borrowing_long: cbL![i]!,
      cum_borrowing_short: cbS![i]!,
      cum_funding_paid_long: cfpL![i]!,
      cum_funding_paid_short: cfpS![i]!,
      cum_funding_earned_long: cfeL![i]!,
      cum_funding_earned_short: cfeS![i]!,
      index_price_time: nullable(indexTime![i]!),
      index_price_source: indexSource!(i) as MarketSnapshot['index_price_source'],
    };
  }
  return out;
}
