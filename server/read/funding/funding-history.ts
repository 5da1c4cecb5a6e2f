/**
 * The read model of the funding-rate history of one protocol: average hourly rates per side per
 * bucket, from the in-memory hourly rows (funding-index.ts) when they are loaded, else from
 * sql/read/funding/funding-rates-history.sql. Beta has no rows in memory (`index` null).
 */
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { windowParams, type HistoryWindow } from '../window.ts';
import type { FundingIndex } from './funding-index.ts';

export class FundingHistory {
  constructor(
    private readonly service: Service,
    private readonly protocol: Protocol,
    private readonly index: FundingIndex | null,
  ) {}

  /** The buckets of `w` for alpha's market variant `variant` or beta's `market` (the other null). */
  async rates(variant: string | null, market: string | null, w: HistoryWindow): Promise<unknown[]> {
    return (
      (this.index && variant !== null ? await this.index.rows(variant, w.from, w.to, w.bucketMs) : null) ??
      (await this.service.db.query('read/funding/funding-rates-history', { ...windowParams(w), protocol: this.protocol, market_variant: variant, market }))
    );
  }
}
