/**
 * The read model of `GET /v1/{protocol}/accounts/{address}/history`: one address's closed and
 * liquidated lifecycles, a page at a time. It picks the tier per request: the lifecycle store and
 * the closed lifecycles after its mark (account-history.ts) when the store holds the address's
 * answer; else DuckDB (sql/read/lifecycles/alpha-account-history.sql), bounded by the history read index's
 * mark for alpha, and for beta (no index) by the account's first and last fill.
 */
import type { Row } from '../../db/database.ts';
import type { Protocol } from '../../journal/rows.ts';
import type { Service } from '../../service.ts';
import type { AccountsIndex } from '../accounts/accounts-index.ts';
import { historyFromStore, type AccountHistoryQuery } from './account-history.ts';
import type { ClosedTail } from './closed-tail.ts';
import type { HistoryIndex } from './history-index.ts';
import type { LifecycleStore } from './lifecycle-store.ts';

/** Bounds that hold every lifecycle's last fill (epoch ms): the year 1970 to 10000. */
const EVER = { lo_ms: 0, hi_ms: 253_402_300_800_000 };

/** One page of an account's history; null from {@link AccountHistories.page} when there is no such account. */
export interface AccountHistoryPage {
  data: Row[];
  total: number;
}

/** The tiers the model reads; without a `history` index or a `lifecycles` store (null) it reads DuckDB alone. */
export interface AccountHistoryTiers {
  history: HistoryIndex | null;
  accounts: AccountsIndex;
  lifecycles: LifecycleStore | null;
  closedTail: ClosedTail;
}

export class AccountHistories {
  constructor(
    private readonly service: Service,
    private readonly protocol: Protocol,
    private readonly tiers: AccountHistoryTiers,
  ) {}

  /** The page of `address`'s closed lifecycles that `filters` select, or null when it has no account. */
  async page(address: string, filters: AccountHistoryQuery): Promise<AccountHistoryPage | null> {
    const { service, protocol } = this;
    const { history: index, lifecycles, closedTail } = this.tiers;
    const quick = lifecycles ? await historyFromStore(lifecycles, closedTail, address, filters) : undefined;
    if (quick) {
      // an address with a closed lifecycle has an account of its protocol (accounts derive from lifecycles)
      if (!quick.held && !(await this.exists(address))) return null;
      return { data: quick.data, total: quick.total };
    }
    // the history read index (both protocols) up to its mark and `lifecycles` after it; without
    // the index (null) every lifecycle comes from `lifecycles` (mark 0), read within the
    // account's first and last fill
    const page = async () =>
      service.db.query('read/lifecycles/alpha-account-history', {
        protocol,
        address,
        mark: index ? await index.mark() : 0,
        ...(index ? EVER : await this.fillWindow(address)),
        ...filters,
      });
    const [known, rows] = await Promise.all([this.exists(address), page()]);
    if (!known) return null;
    const total = (rows[0]?.total as number | undefined) ?? 0;
    const data = rows.filter((r) => r.position_id !== null).map(({ total: _t, ...row }) => row);
    return { data, total };
  }

  /**
   * Whether the address has an account: from the accounts snapshot when it has the account
   * (accounts are never removed), else from DuckDB (a scan of every account).
   */
  private async exists(address: string): Promise<boolean> {
    if (this.tiers.accounts.peek(address)) return true;
    return (await this.service.db.queryOne('read/lifecycles/alpha-account-exists', { protocol: this.protocol, address }))?.account_exists === true;
  }

  /** [first fill, last fill] of the address's account, epoch ms ([0, 0) without one): from the accounts index when it holds the account. */
  private async fillWindow(address: string): Promise<{ lo_ms: number; hi_ms: number }> {
    const held = this.tiers.accounts.peek(address);
    if (held) return { lo_ms: Date.parse(held.first_trade_at as string), hi_ms: Date.parse(held.last_trade_at as string) + 1 };
    const span = await this.service.db.queryOne('api/fills-address-span', { protocol: this.protocol, address });
    return span ? { lo_ms: span.first_ms as number, hi_ms: (span.last_ms as number) + 1 } : { lo_ms: 0, hi_ms: 0 };
  }
}
