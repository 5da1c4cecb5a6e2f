/**
 * The checks a decoded fill must pass before it is appended: the journal's types (a USD amount
 * outside DECIMAL(18,6) would fail the append's cast and stop the source) and the facts every
 * fill obeys (a side, a type, a positive price, sizes consistent with the type). Returns the
 * first problem in one sentence, or null.
 */
import { FILL_TYPES, type IncomingFill } from '../journal/rows.ts';

/** The largest |value| DECIMAL(18,6) holds. */
const DECIMAL_18_6_MAX = 999_999_999_999.999999;
const USD_FIELDS = [
  'size_delta_usd',
  'position_size_usd',
  'collateral_delta_usd',
  'position_collateral_usd',
  'pnl_delta_usd',
  'fee_usd',
  'borrowing_fee_usd',
  'funding_fee_usd',
  'liquidation_fee_usd',
  'funding_earned_usd',
  'fee_total_usd',
] as const;
const NON_NEGATIVE = ['position_size_usd', 'position_collateral_usd', 'fee_usd', 'borrowing_fee_usd', 'funding_fee_usd', 'liquidation_fee_usd', 'funding_earned_usd', 'fee_total_usd'] as const;
const EARLIEST = Date.UTC(2020, 0, 1);

export function fillProblem(f: IncomingFill, now = Date.now()): string | null {
  if (f.protocol !== 'alpha' && f.protocol !== 'beta') return `protocol "${String(f.protocol)}"`;
  if (f.side !== 'long' && f.side !== 'short') return `side "${String(f.side)}"`;
  if (!FILL_TYPES.includes(f.type)) return `type "${String(f.type)}"`;
  for (const k of ['tx', 'position_key', 'address', 'market'] as const) if (!f[k]) return `${k} is empty`;
  if (!Number.isFinite(f.time) || f.time < EARLIEST || f.time > now + 86_400_000) return `time ${f.time} is not a plausible block time`;
  for (const k of USD_FIELDS) {
    const v = f[k];
    if (v === null) continue;
    if (!Number.isFinite(v)) return `${k} is ${v}`;
    if (Math.abs(v) > DECIMAL_18_6_MAX) return `${k} ${v} does not fit the journal's DECIMAL(18,6)`;
  }
  for (const k of NON_NEGATIVE) if ((f[k] ?? 0) < 0) return `${k} ${f[k]} is negative`;
  for (const k of ['price', 'entry_price', 'index_price'] as const) {
    if (!Number.isFinite(f[k]) || f[k] <= 0) return `${k} ${f[k]} is not a positive price`;
  }
  const d = f.size_delta_usd;
  switch (f.type) {
    case 'open':
      if (d <= 0 || Math.abs(d - f.position_size_usd) > 1e-6) return `an open of ${d} leaves a size of ${f.position_size_usd}`;
      break;
    case 'close':
    case 'liquidation':
      if (f.position_size_usd !== 0 || d >= 0) return `a ${f.type} of ${d} leaves a size of ${f.position_size_usd}`;
      break;
    case 'increase':
      if (d < 0 || f.position_size_usd <= 0) return `an increase of ${d} leaves a size of ${f.position_size_usd}`;
      break;
    case 'decrease':
      if (d > 0 || f.position_size_usd <= 0) return `a decrease of ${d} leaves a size of ${f.position_size_usd}`;
      break;
  }
  return null;
}
