/**
 * The read model of the bucketed histories of one protocol: open interest at each bucket end,
 * traded volume and liquidations per bucket. Each answer comes from the in-memory 5-minute buckets
 * (history-mirror.ts) when they are loaded and can answer the window, else from its SQL
 * (sql/read/buckets/). Beta has no buckets in memory (`mirror` null): always the SQL.
 */
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { HistoryWindow } from '../window.ts';
import type { HistoryMirror } from './history-mirror.ts';
import { oiPieces, sumPieces } from './history-pieces.ts';
import { liquidationsFromMirror, openInterestFromMirror, volumeFromMirror } from './mirror-history.ts';
import type { EdgeProbe } from './mirror-probe.ts';
import { oiSeries } from './oi-series.ts';

/**
 * Told which tier answers before the SQL runs: the mirror's probe (it bounds the answer's validity
 * from memory), or undefined when the SQL answers, so a caller's own queries can run beside it.
 */
export type TierChosen = (probe: EdgeProbe | undefined) => void;

export class BucketHistory {
  constructor(
    private readonly service: Service,
    private readonly protocol: Protocol,
    private readonly mirror: HistoryMirror | null,
  ) {}

  /** Open interest (long, short, total) at the end of each bucket of `w`, carried forward. */
  async openInterest(market: string | null, w: HistoryWindow, chosen: TierChosen): Promise<unknown[]> {
    const pieces = oiPieces(w);
    const found = this.mirror ? await openInterestFromMirror(this.mirror, market, pieces.lo!, pieces.w_end!, w.bucketMs) : null;
    chosen(found?.probe);
    return found?.rows ?? oiSeries(await this.service.db.query('read/buckets/open-interest-history', { ...pieces, market, protocol: this.protocol }), pieces.lo!, pieces.w_end!, w.bucketMs);
  }

  /** Traded notional and fees per bucket of `w` (buckets without fills omitted). */
  volume(market: string | null, w: HistoryWindow, chosen: TierChosen): Promise<unknown[]> {
    return this.sums(market, w, chosen, volumeFromMirror, 'read/buckets/volume-history');
  }

  /** Liquidation count, notional by side and fees per bucket of `w` (buckets without one omitted). */
  liquidations(market: string | null, w: HistoryWindow, chosen: TierChosen): Promise<unknown[]> {
    return this.sums(market, w, chosen, liquidationsFromMirror, 'read/buckets/liquidations-history');
  }

  private async sums(
    market: string | null,
    w: HistoryWindow,
    chosen: TierChosen,
    fromMirror: typeof volumeFromMirror | typeof liquidationsFromMirror,
    sql: 'read/buckets/volume-history' | 'read/buckets/liquidations-history',
  ): Promise<unknown[]> {
    const found = this.mirror ? await fromMirror(this.mirror, market, w) : null;
    chosen(found?.probe);
    return found?.rows ?? (await this.service.db.query(sql, { ...sumPieces(w.from, w.to, w.bucketMs), bucket_ms: w.bucketMs, market, protocol: this.protocol }));
  }
}
