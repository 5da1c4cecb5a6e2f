/**
 * `GET /v1/alpha/accounts/stats`, `GET /v1/alpha/accounts/search` and
 * `GET /v1/alpha/accounts/{address}` of one protocol: accounts summary, account search (offset-paged)
 * and one account.
 *
 * Search sorts by a validated enum, then by address asc, so offset pages never repeat or skip an
 * account; it runs in memory over the generation's accounts (../accounts-index.ts).
 * `has_active_positions=false` keeps only accounts without an open position.
 * `GET /v1/alpha/accounts/{address}` has no 400: a malformed address is a 404.
 */
import * as v from 'valibot';
import { getRouterParam } from 'h3';
import { defineRoute, type RestRoute } from './define.ts';
import { Account, AccountsSummary } from '../response-schemas/accounts.ts';
import { dataOf, pagedListOf } from '../response-schemas/envelopes.ts';
import { notFound } from '../errors.ts';
import { integerParam, limitParam, noQuery, offsetParam, orderParam, pageOf, querySchema } from '../params.ts';
import type { Service } from '../../service.ts';
import type { Protocol } from '../../journal/rows.ts';
import { AccountsIndex } from '../../read/accounts/accounts-index.ts';
import { summaryOf } from '../../read/accounts/accounts-summary.ts';
import { declareAddressFootprint } from '../../cache/footprint.ts';
import { BASE58_ADDRESS } from '../../lib/address.ts';

/** `sort_by` values of `GET /v1/alpha/accounts/search` (current_notional = open_notional_usd). */
export const ACCOUNT_SORTS = ['net_pnl', 'volume', 'win_rate', 'positions', 'current_notional'] as const;

const searchQuery = querySchema({
  sort_by: v.optional(v.pipe(v.picklist(ACCOUNT_SORTS, `must be one of ${ACCOUNT_SORTS.join(', ')}`), v.description('Sort field (default net_pnl); ties broken by address asc.'))),
  order: v.optional(orderParam),
  min_trades: v.optional(integerParam(0, 1_000_000_000, 'Only accounts with at least this many closed trades.')),
  has_active_positions: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'must be true or false'),
      v.description('true: only accounts with an open position; false: only accounts without one.'),
      v.transform((s: 'true' | 'false') => s === 'true'),
    ),
  ),
  search: v.optional(
    v.pipe(v.string('must be given once'), v.regex(/^[a-zA-Z0-9]{4,44}$/, 'must be 4 to 44 letters or digits'), v.description('Case-insensitive address prefix, 4-44 alphanumeric characters.')),
  ),
  offset: v.optional(offsetParam),
  limit: v.optional(limitParam),
});

/** GET /v1/{protocol}/accounts/stats, /accounts/search, /accounts/:address (`accounts`: the protocol's in-memory snapshot, shared with `/accounts/{address}/history`; `/accounts/stats` takes its totals). */
export function accountRoutes(service: Service, protocol: Protocol, accounts: AccountsIndex): RestRoute[] {
  const name = protocol === 'alpha' ? 'alpha' : 'beta';
  return [
    defineRoute({
      path: `/v1/${protocol}/accounts/stats`,
      cost: 1,
      summary: `Summary over every ${name} account: counts, volume, PnL totals and average win rate.`,
      response: dataOf(AccountsSummary),
      query: noQuery,
      handle: async () => ({ data: summaryOf(await accounts.totals()) }),
    }),
    defineRoute({
      path: `/v1/${protocol}/accounts/search`,
      cost: 5,
      summary: `Search and rank ${name} accounts (offset-paged).`,
      response: pagedListOf(Account),
      query: searchQuery,
      handle: async ({ query: q }) => {
        const { offset, limit } = pageOf(q);
        const { rows, total } = await accounts.search({
          sortBy: q.sort_by ?? 'net_pnl',
          order: q.order ?? 'desc',
          minTrades: q.min_trades ?? null,
          hasActive: q.has_active_positions ?? null,
          search: q.search ?? null,
          offset,
          limit,
        });
        const data = rows;
        return { data, pagination: { limit, offset, total } };
      },
    }),
    defineRoute({
      path: `/v1/${protocol}/accounts/:address`,
      cost: 1,
      summary: `One ${name} account (404 when unknown or malformed).`,
      response: dataOf(Account),
      query: noQuery,
      handle: async ({ event }) => {
        const address = getRouterParam(event, 'address') ?? '';
        if (!BASE58_ADDRESS.test(address)) throw notFound(`No ${name} account has this address.`);
        const cached = accounts.peek(address);
        const row = cached === undefined ? await service.db.queryOne('api/alpha-account', { protocol, address }) : cached;
        if (!row) throw notFound(`No ${name} account has this address.`);
        // an account is a function of its lifecycles, hence of its fills
        declareAddressFootprint(event, protocol, address);
        return { data: row };
      },
    }),
  ];
}
