/**
 * Which appends a cached answer survives (server/cache/response-cache.ts). With a live source (an append
 * every second or two) an append that dropped every entry would have every answer computed again
 * each second, even the ones no new row can change. So an entry may carry a footprint, the part of
 * the journal its answer is a function of; an append keeps the entry when none of its rows falls
 * in it:
 *  - **an address** (`GET /v1/alpha/accounts/{address}`, `…/accounts/{address}/history`,
 *    `GET /v1/alpha/positions/{address}/{id}/lifecycle`, and `GET /v1/alpha/positions/{address}/{id}`
 *    for a lifecycle that is no longer open): the
 *    answer derives from that address's fills of one protocol alone (accounts and lifecycles are
 *    functions of their fills; positions snapshots and market snapshots only change live fields,
 *    which those answers do not have), so an append without a fill of the address keeps it;
 *  - **a time bound** (a window with an explicit `to`: liquidation search and the liquidation,
 *    open-interest, volume and funding-rate history routes under `/v1/alpha/`): the answer
 *    derives from fills and market snapshots before `before` alone (the end of the bucket holding
 *    `to`, so a bucket's state or sums are covered whole), so an append whose fills and market
 *    snapshots all lie at or after `before` keeps it.
 * An answer without a footprint is dropped by every append. Jobs that rewrite derived
 * buckets (the rollup refresh) still drop everything.
 */
import type { H3Event } from 'h3';
import type { DerivedChange } from '../ingest/append-events.ts';
import type { Fill, Protocol } from '../journal/rows.ts';
import { DEFAULT_INTERVAL, INTERVAL_MS, type HistoryInterval } from '../read/window.ts';
import type { CachePolicy } from './policy.ts';

/** The part of the journal an answer is a function of (see the file comment). */
export type Footprint = { kind: 'address'; protocol: Protocol; address: string } | { kind: 'before'; before: number };

/** Where a route's declared footprint is kept on its event (see {@link declareAddressFootprint}). */
const FOOTPRINT = 'perpsCacheFootprint';

/**
 * Declares that the answer being computed for `event` is a function of `address`'s fills of
 * `protocol` alone, so appends without such a fill keep it cached. The route owns the claim:
 * test/cache/cache-appends.test.ts checks every declaring route against uncached answers across appends.
 */
export function declareAddressFootprint(event: H3Event, protocol: Protocol, address: string): void {
  event.context[FOOTPRINT] = { kind: 'address', protocol, address } satisfies Footprint;
}

/** The footprint a route declared while computing `event`'s answer, if any. */
export function declaredFootprint(event: H3Event): Footprint | undefined {
  return event.context[FOOTPRINT] as Footprint | undefined;
}

/**
 * The time-bound footprint of a window answer with an explicit `to` (epoch ms, from the validated
 * query or a cursor's filters), or undefined: by the route's policy, the end of the bucket holding
 * `to`, or the instant after `to`.
 */
export function windowFootprint(policy: CachePolicy | undefined, query: Record<string, unknown>, to: number | null): Footprint | undefined {
  if (to === null || policy?.timeBound === undefined) return undefined;
  if (policy.timeBound === 'instant') return { kind: 'before', before: to + 1 };
  const step = INTERVAL_MS[(query.interval as HistoryInterval | undefined) ?? DEFAULT_INTERVAL];
  return { kind: 'before', before: (Math.floor(to / step) + 1) * step };
}

/** Fills of an append above which its addresses are not indexed: a backfill's batch drops every address entry. */
const MAX_INDEXED_FILLS = 50_000;

/** What one committed append changed, asked of each footprint in turn. */
export class AppendImpact {
  /** `protocol address` of every fill, built on the first address question */
  private addresses: Set<string> | null = null;

  constructor(
    private readonly fills: readonly Fill[],
    private readonly change: DerivedChange | null,
  ) {}

  /** Whether an answer with footprint `fp` may differ after the append. */
  touches(fp: Footprint): boolean {
    if (fp.kind === 'before') return this.change !== null && this.change.fromMs < fp.before;
    if (this.fills.length > MAX_INDEXED_FILLS) return true;
    if (this.addresses === null) {
      this.addresses = new Set();
      for (const f of this.fills) this.addresses.add(`${f.protocol} ${f.address}`);
    }
    return this.addresses.has(`${fp.protocol} ${fp.address}`);
  }
}
