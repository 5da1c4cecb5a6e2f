/**
 * `GET /v1/alpha/accounts/stats`'s AccountsSummary, from exact totals over every alpha account: the
 * counts, the micro-dollar sums of volume and of net PnL above and below zero, and Σ win_rate × 2^84
 * (see sql/read/accounts/alpha-accounts-totals.sql). Two paths give the totals: that SQL, and
 * `GET /v1/alpha/accounts/search`'s in-memory snapshot, which keeps them up to date as appends patch it
 * (the SQL scans every alpha account's decimals, 15-40 ms, and a live append invalidates it every
 * second). Both end in {@link summaryOf}, so they answer identically, bit for bit.
 *
 * The averages are exact, rounded once: `avg_net_pnl_usd` is the mean net PnL rounded to the
 * micro-dollar (halves away from zero), then converted as a DECIMAL(38,6) would be; `avg_win_rate`
 * is the mean of the accounts' win rates (those with a trade) rounded to the nearest double.
 */
import type { Row } from '../../db/database.ts';
import { servedUsd, unscaledOf } from '../../db/decimal-double.ts';
import { divRound, nearestDouble } from '../../db/exact-ratio.ts';
import type { AccountTable } from './account-table.ts';

const MICROS = 1_000_000n;
/** the scale of `winRateUnits` (sql/read/accounts/alpha-accounts-totals.sql): 2^84, split in two halves */
const WIN_RATE_UNIT = 2 ** 84;
const RATE_HALF = 2 ** 42;
const RATE_SPLIT = 42n;
/** rows summed in doubles before their sums go into the BigInt totals, and the largest term: 2^10 × 2^43 = 2^53 */
const BLOCK_ROWS = 1024;
const TERM_LIMIT = 2 ** 43;

/** Exact totals over a set of alpha accounts. */
export interface AccountTotals {
  accounts: number;
  withOpenPositions: number;
  positions: number;
  openPositions: number;
  /** micro-dollars */
  volume: bigint;
  /** Σ net PnL of accounts above zero, micro-dollars */
  profits: bigint;
  /** Σ net PnL of accounts below zero, micro-dollars (negative) */
  losses: bigint;
  /** accounts with at least one closed trade */
  traded: number;
  /** Σ win_rate × 2^84 over the traded accounts */
  winRateUnits: bigint;
}

/** The AccountsSummary (contract §6) of exact totals. */
export function summaryOf(t: AccountTotals): Row {
  const net = t.profits + t.losses;
  return {
    total_accounts: t.accounts,
    accounts_with_open_positions: t.withOpenPositions,
    total_positions_ever: t.positions,
    total_active_positions: t.openPositions,
    total_volume_usd: servedUsd(t.volume),
    avg_net_pnl_usd: t.accounts === 0 ? 0 : servedUsd(divRound(net, BigInt(t.accounts))),
    total_profits_usd: servedUsd(t.profits),
    total_losses_usd: servedUsd(t.losses),
    avg_win_rate: t.traded === 0 ? 0 : nearestDouble(t.winRateUnits, BigInt(t.traded) * BigInt(WIN_RATE_UNIT)),
  };
}

/** The totals of sql/read/accounts/alpha-accounts-totals.sql's row. */
export function totalsFromSql(row: Row): AccountTotals {
  return {
    accounts: row.accounts as number,
    withOpenPositions: row.with_open_positions as number,
    positions: row.positions as number,
    openPositions: row.open_positions as number,
    volume: unscaledOf(row.volume_usd as string, 6),
    profits: unscaledOf(row.profits_usd as string, 6),
    losses: unscaledOf(row.losses_usd as string, 6),
    traded: row.traded as number,
    winRateUnits: BigInt(row.win_rate_units as string),
  };
}

/**
 * The totals of rows of an {@link AccountTable} holding alpha_account_held() rows, kept exact as
 * rows change: {@link remove} the old values of changed rows, change the table, {@link add} the
 * new ones. `exact` turns false (for good: the caller asks the SQL) if a win rate is not a whole
 * number of 2^-84, which a win rate of fewer than 2^31 trades cannot be, or an account's volume
 * or net PnL reaches $8.8T (2^43 dollars).
 */
export class TableTotals {
  exact = true;
  private constructor(private readonly t: AccountTotals) {}

  /** Totals of every row of `table`. */
  static of(table: AccountTable): TableTotals {
    const totals = new TableTotals({
      accounts: 0,
      withOpenPositions: 0,
      positions: 0,
      openPositions: 0,
      volume: 0n,
      profits: 0n,
      losses: 0n,
      traded: 0,
      winRateUnits: 0n,
    });
    const all = new Int32Array(table.length);
    for (let i = 0; i < all.length; i++) all[i] = i;
    totals.add(table, all);
    return totals;
  }

  /** The totals now. */
  get totals(): AccountTotals {
    return { ...this.t };
  }

  /** Adds rows `rows` of `table` as they are now. */
  add(table: AccountTable, rows: ArrayLike<number>): void {
    this.change(table, rows, 1);
  }

  /** Takes out rows `rows` of `table` as they are now (before the table changes them). */
  remove(table: AccountTable, rows: ArrayLike<number>): void {
    this.change(table, rows, -1);
  }

  private change(table: AccountTable, rows: ArrayLike<number>, sign: 1 | -1): void {
    const t = this.t;
    const open = table.numbers('open_positions');
    const positions = table.numbers('positions');
    const trades = table.numbers('trades');
    const winRate = table.numbers('win_rate');
    const volumeWhole = table.numbers('_volume_whole');
    const volumeMicros = table.numbers('_volume_micros');
    const netWhole = table.numbers('_net_pnl_whole');
    const netMicros = table.numbers('_net_pnl_micros');
    const big = BigInt(sign);
    // Each block of rows is summed in doubles, exact while each term is below 2^43 (a whole part
    // of $8.8T; a win rate's half is below 2^42) and a block has at most 2^10 rows; its sums then
    // go into the BigInt totals. A BigInt per value made the totals of 94k accounts take 17-42 ms.
    for (let from = 0; from < rows.length; from += BLOCK_ROWS) {
      let volume = 0,
        volumeFraction = 0,
        profits = 0,
        profitsFraction = 0,
        losses = 0,
        lossesFraction = 0,
        rateHi = 0,
        rateLo = 0;
      for (let j = from, end = Math.min(rows.length, from + BLOCK_ROWS); j < end; j++) {
        const i = rows[j]!;
        t.accounts += sign;
        if (open[i]! > 0) t.withOpenPositions += sign;
        t.positions += sign * positions[i]!;
        t.openPositions += sign * open[i]!;
        const vw = volumeWhole[i]!;
        const nw = netWhole[i]!;
        if (vw >= TERM_LIMIT || nw >= TERM_LIMIT || nw <= -TERM_LIMIT) this.exact = false;
        volume += vw;
        volumeFraction += volumeMicros[i]!;
        // the micros (0-999,999) lie above the whole part (a floor): the sign is the whole
        // part's, or positive when it is 0 and micros remain
        if (nw < 0) {
          losses += nw;
          lossesFraction += netMicros[i]!;
        } else if (nw > 0 || netMicros[i]! > 0) {
          profits += nw;
          profitsFraction += netMicros[i]!;
        }
        if (trades[i]! > 0) {
          t.traded += sign;
          // win_rate × 2^84 = hi × 2^42 + lo, both whole and below 2^42: each step is a
          // power-of-two scaling or the (exact) fraction of a double
          const scaled = winRate[i]! * RATE_HALF;
          const hi = Math.floor(scaled);
          const lo = (scaled - hi) * RATE_HALF;
          if (!Number.isInteger(lo)) this.exact = false;
          rateHi += hi;
          rateLo += lo;
        }
      }
      t.volume += big * (BigInt(volume) * MICROS + BigInt(volumeFraction));
      t.profits += big * (BigInt(profits) * MICROS + BigInt(profitsFraction));
      t.losses += big * (BigInt(losses) * MICROS + BigInt(lossesFraction));
      t.winRateUnits += big * ((BigInt(rateHi) << RATE_SPLIT) + BigInt(rateLo));
    }
  }
}
