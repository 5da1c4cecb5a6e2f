/**
 * The journal's cumulative funding columns for alpha: funding paid and earned per $1 of size, per
 * side, since this source began polling (only differences between two snapshots are ever used).
 * The program keeps funding per collateral token (token units per size), whose USD value cannot
 * be summed from one snapshot; so the source integrates the USD rates in force between
 * consecutive snapshots, as the simulator accrues them. A restart continues from the journal's
 * latest snapshot (sql/solana/market-latest.sql) with the rates that snapshot recorded.
 */
export interface FundingPoint {
  timeMs: number;
  /** signed hourly funding per side (+ = receives) in force from `timeMs` */
  fundingLong: number;
  fundingShort: number;
  paidLong: number;
  paidShort: number;
  earnedLong: number;
  earnedShort: number;
}

/** The next point: the previous rates accrued over the elapsed hours, then the new rates. */
export function advanceFunding(prev: FundingPoint | undefined, timeMs: number, fundingLong: number, fundingShort: number): FundingPoint {
  if (!prev) return { timeMs, fundingLong, fundingShort, paidLong: 0, paidShort: 0, earnedLong: 0, earnedShort: 0 };
  const hours = Math.max(0, timeMs - prev.timeMs) / 3_600_000;
  const paid = (r: number) => (r < 0 ? -r * hours : 0);
  const earned = (r: number) => (r > 0 ? r * hours : 0);
  return {
    timeMs,
    fundingLong,
    fundingShort,
    paidLong: prev.paidLong + paid(prev.fundingLong),
    paidShort: prev.paidShort + paid(prev.fundingShort),
    earnedLong: prev.earnedLong + earned(prev.fundingLong),
    earnedShort: prev.earnedShort + earned(prev.fundingShort),
  };
}
