/**
 * The row each query of sql/api/ returns, by the same name as server/db/queries.ts: its columns in
 * order, each with the DuckDB type of the result column. The database's `query`, `queryOne` and
 * `queryChunks` return {@link RowOf} for a name given as a literal, so a misspelt column or a
 * column the SQL does not return fails `npm run typecheck`. test/db/sql-rows.test.ts prepares every
 * query on an empty derived state and checks names, order and types against DuckDB's.
 *
 * The templated files (sql/api/prices-edge, prices-first-snapshot, prices-history: their text is
 * completed at run time by server/read/prices/price-candles.ts) are not listed: they are never run by name.
 */
import type { Plain } from './values.ts';

// biome-ignore format: one query per line reads as the table it is
export const QUERY_ROWS = {
  'api/activity-24h-valid-until': { valid_until: 'DOUBLE' },
  'api/alpha-account': {
    address: 'VARCHAR', trades: 'INTEGER', wins: 'INTEGER', losses: 'INTEGER', win_rate: 'DOUBLE',
    volume_usd: 'DOUBLE', net_pnl_usd: 'DOUBLE', positions: 'INTEGER', open_positions: 'INTEGER',
    first_trade_at: 'TIMESTAMP', last_trade_at: 'TIMESTAMP', realized_pnl_usd: 'DOUBLE', fees_usd: 'DOUBLE',
    funding_fees_usd: 'DOUBLE', funding_earned_usd: 'DOUBLE', borrowing_fees_usd: 'DOUBLE',
    liquidation_fees_usd: 'DOUBLE', avg_leverage: 'DOUBLE', max_leverage: 'DOUBLE',
    avg_position_size_usd: 'DOUBLE', max_position_size_usd: 'DOUBLE', avg_position_duration_hours: 'DOUBLE',
    open_notional_usd: 'DOUBLE', markets_traded: 'VARCHAR[]', market_variants_traded: 'VARCHAR[]',
  },
  'read/lifecycles/alpha-account-exists': { account_exists: 'BOOLEAN' },
  'read/lifecycles/alpha-account-history': {
    total: 'BIGINT', protocol: 'VARCHAR', position_id: 'BIGINT', market_variant: 'VARCHAR',
    market: 'VARCHAR', address: 'VARCHAR', side: 'VARCHAR', max_size_usd: 'DOUBLE',
    max_collateral_usd: 'DOUBLE', entry_price: 'DOUBLE', opened_at: 'TIMESTAMP', status: 'VARCHAR',
    closed_at: 'TIMESTAMP', exit_price: 'DOUBLE', max_leverage: 'DOUBLE', realized_pnl_usd: 'DOUBLE',
    fees_usd: 'DOUBLE', liquidation_fees_usd: 'DOUBLE', funding_fees_usd: 'DOUBLE',
    borrowing_fees_usd: 'DOUBLE', funding_earned_usd: 'DOUBLE', net_pnl_usd: 'DOUBLE',
    fill_count: 'INTEGER', open_tx: 'VARCHAR', close_tx: 'VARCHAR',
  },
  'read/accounts/alpha-accounts-all': {
    address: 'VARCHAR', trades: 'INTEGER', wins: 'INTEGER', losses: 'INTEGER', win_rate: 'DOUBLE',
    volume_usd: 'DOUBLE', net_pnl_usd: 'DOUBLE', positions: 'INTEGER', open_positions: 'INTEGER',
    first_trade_at: 'TIMESTAMP', last_trade_at: 'TIMESTAMP', realized_pnl_usd: 'DOUBLE', fees_usd: 'DOUBLE',
    funding_fees_usd: 'DOUBLE', funding_earned_usd: 'DOUBLE', borrowing_fees_usd: 'DOUBLE',
    liquidation_fees_usd: 'DOUBLE', avg_leverage: 'DOUBLE', max_leverage: 'DOUBLE',
    avg_position_size_usd: 'DOUBLE', max_position_size_usd: 'DOUBLE', avg_position_duration_hours: 'DOUBLE',
    open_notional_usd: 'DOUBLE', markets_traded: 'VARCHAR[]', market_variants_traded: 'VARCHAR[]',
    _volume_whole: 'BIGINT', _volume_micros: 'INTEGER', _net_pnl_whole: 'BIGINT',
    _net_pnl_micros: 'INTEGER',
  },
  'read/accounts/alpha-accounts-of': {
    address: 'VARCHAR', trades: 'INTEGER', wins: 'INTEGER', losses: 'INTEGER', win_rate: 'DOUBLE',
    volume_usd: 'DOUBLE', net_pnl_usd: 'DOUBLE', positions: 'INTEGER', open_positions: 'INTEGER',
    first_trade_at: 'TIMESTAMP', last_trade_at: 'TIMESTAMP', realized_pnl_usd: 'DOUBLE', fees_usd: 'DOUBLE',
    funding_fees_usd: 'DOUBLE', funding_earned_usd: 'DOUBLE', borrowing_fees_usd: 'DOUBLE',
    liquidation_fees_usd: 'DOUBLE', avg_leverage: 'DOUBLE', max_leverage: 'DOUBLE',
    avg_position_size_usd: 'DOUBLE', max_position_size_usd: 'DOUBLE', avg_position_duration_hours: 'DOUBLE',
    open_notional_usd: 'DOUBLE', markets_traded: 'VARCHAR[]', market_variants_traded: 'VARCHAR[]',
    _volume_whole: 'BIGINT', _volume_micros: 'INTEGER', _net_pnl_whole: 'BIGINT',
    _net_pnl_micros: 'INTEGER',
  },
  'read/accounts/alpha-accounts-totals': {
    accounts: 'BIGINT', with_open_positions: 'BIGINT', positions: 'BIGINT', open_positions: 'BIGINT',
    volume_usd: 'VARCHAR', profits_usd: 'VARCHAR', losses_usd: 'VARCHAR', traded: 'BIGINT',
    win_rate_units: 'VARCHAR',
  },
  'read/lifecycles/alpha-closed-after': {
    watermark: 'DOUBLE', address: 'VARCHAR', position_id: 'DOUBLE', market_variant: 'VARCHAR',
    market: 'VARCHAR', opened_us: 'DOUBLE', closed_us: 'DOUBLE', max_size_usd: 'DOUBLE',
    net_pnl_usd: 'DOUBLE', max_leverage: 'DOUBLE', last_seq: 'DOUBLE', doc: 'VARCHAR',
  },
  'api/alpha-funding-rates': {
    market_variant: 'VARCHAR', time: 'TIMESTAMP', funding_rate_long: 'DOUBLE', funding_rate_short: 'DOUBLE',
  },
  'read/liquidations/alpha-liquidations-after': {
    time: 'TIMESTAMP', position_id: 'BIGINT', protocol: 'VARCHAR', market: 'VARCHAR',
    market_variant: 'VARCHAR', address: 'VARCHAR', side: 'VARCHAR', size_usd: 'DOUBLE',
    collateral_usd: 'DOUBLE', price: 'DOUBLE', entry_price: 'DOUBLE', pnl_usd: 'DOUBLE',
    liquidation_fee_usd: 'DOUBLE', tx: 'VARCHAR', time_ms: 'BIGINT', seq: 'BIGINT', time_us: 'DOUBLE',
  },
  'api/alpha-liquidations-newest': { time_ms: 'BIGINT' },
  'api/alpha-liquidations-search': {
    time: 'TIMESTAMP', position_id: 'BIGINT', protocol: 'VARCHAR', market: 'VARCHAR',
    market_variant: 'VARCHAR', address: 'VARCHAR', side: 'VARCHAR', size_usd: 'DOUBLE',
    collateral_usd: 'DOUBLE', price: 'DOUBLE', entry_price: 'DOUBLE', pnl_usd: 'DOUBLE',
    liquidation_fee_usd: 'DOUBLE', tx: 'VARCHAR', time_ms: 'BIGINT', seq: 'BIGINT',
  },
  'api/alpha-markets': { market: 'VARCHAR', market_variant: 'VARCHAR' },
  'api/alpha-markets-stats': {
    market_variant: 'VARCHAR', market: 'VARCHAR', index_price: 'DOUBLE', open_interest_long_usd: 'DOUBLE',
    open_interest_short_usd: 'DOUBLE', funding_rate_long: 'DOUBLE', funding_rate_short: 'DOUBLE',
    volume_24h_usd: 'DOUBLE', fees_24h_usd: 'DOUBLE', liquidations_24h_usd: 'DOUBLE',
  },
  'api/alpha-open-interest': {
    market_variant: 'VARCHAR', market: 'VARCHAR', time: 'TIMESTAMP', long_usd: 'DOUBLE',
    short_usd: 'DOUBLE', total_usd: 'DOUBLE',
  },
  'read/open-positions/alpha-open-positions-all': {
    protocol: 'VARCHAR', position_id: 'BIGINT', market_variant: 'VARCHAR', market: 'VARCHAR',
    address: 'VARCHAR', side: 'VARCHAR', current_size_usd: 'DOUBLE', max_size_usd: 'DOUBLE',
    current_collateral_usd: 'DOUBLE', max_collateral_usd: 'DOUBLE', unsettled_borrowing_usd: 'DOUBLE',
    unsettled_funding_usd: 'DOUBLE', claimable_funding_usd: 'DOUBLE', entry_price: 'DOUBLE',
    leverage: 'DOUBLE', opened_at: 'TIMESTAMP', mark_price: 'DOUBLE', unrealized_pnl_usd: 'DOUBLE',
    liquidation_price: 'DOUBLE', updated_at: 'TIMESTAMP', opened_us: 'DOUBLE', liq_proximity: 'DOUBLE',
    source: 'VARCHAR', last_seq: 'BIGINT', fill_count: 'INTEGER',
  },
  'api/alpha-open-positions-search': {
    total: 'BIGINT', oldest_updated: 'TIMESTAMP', last_full_refresh: 'TIMESTAMP', protocol: 'VARCHAR',
    position_id: 'BIGINT', market_variant: 'VARCHAR', market: 'VARCHAR', address: 'VARCHAR',
    side: 'VARCHAR', current_size_usd: 'DOUBLE', max_size_usd: 'DOUBLE', current_collateral_usd: 'DOUBLE',
    max_collateral_usd: 'DOUBLE', unsettled_borrowing_usd: 'DOUBLE', unsettled_funding_usd: 'DOUBLE',
    claimable_funding_usd: 'DOUBLE', entry_price: 'DOUBLE', leverage: 'DOUBLE', opened_at: 'TIMESTAMP',
    mark_price: 'DOUBLE', unrealized_pnl_usd: 'DOUBLE', liquidation_price: 'DOUBLE',
    updated_at: 'TIMESTAMP',
  },
  'api/alpha-open-positions-stats': {
    market: 'VARCHAR', snapshot_ts: 'TIMESTAMP', total_positions: 'BIGINT', long_positions: 'BIGINT',
    short_positions: 'BIGINT', long_notional_usd: 'DOUBLE', short_notional_usd: 'DOUBLE',
    long_upnl_usd: 'DOUBLE', short_upnl_usd: 'DOUBLE', avg_leverage: 'DOUBLE',
  },
  'read/lifecycles/alpha-open-record': {
    protocol: 'VARCHAR', position_id: 'BIGINT', market_variant: 'VARCHAR', market: 'VARCHAR',
    address: 'VARCHAR', side: 'VARCHAR', max_size_usd: 'DOUBLE', max_collateral_usd: 'DOUBLE',
    entry_price: 'DOUBLE', opened_at: 'TIMESTAMP', status: 'VARCHAR', closed_at: 'TIMESTAMP',
    exit_price: 'DOUBLE', max_leverage: 'DOUBLE', realized_pnl_usd: 'DOUBLE', fees_usd: 'DOUBLE',
    liquidation_fees_usd: 'DOUBLE', funding_fees_usd: 'DOUBLE', borrowing_fees_usd: 'DOUBLE',
    funding_earned_usd: 'DOUBLE', net_pnl_usd: 'DOUBLE', fill_count: 'INTEGER', open_tx: 'VARCHAR',
    close_tx: 'VARCHAR',
  },
  'api/alpha-position': {
    protocol: 'VARCHAR', position_id: 'BIGINT', market_variant: 'VARCHAR', market: 'VARCHAR',
    address: 'VARCHAR', side: 'VARCHAR', max_size_usd: 'DOUBLE', max_collateral_usd: 'DOUBLE',
    entry_price: 'DOUBLE', opened_at: 'TIMESTAMP', status: 'VARCHAR', closed_at: 'TIMESTAMP',
    exit_price: 'DOUBLE', max_leverage: 'DOUBLE', realized_pnl_usd: 'DOUBLE', fees_usd: 'DOUBLE',
    liquidation_fees_usd: 'DOUBLE', funding_fees_usd: 'DOUBLE', borrowing_fees_usd: 'DOUBLE',
    funding_earned_usd: 'DOUBLE', net_pnl_usd: 'DOUBLE', fill_count: 'INTEGER', open_tx: 'VARCHAR',
    close_tx: 'VARCHAR',
  },
  'api/alpha-position-lifecycle': {
    total: 'BIGINT', seq: 'BIGINT', time: 'TIMESTAMP', type: 'VARCHAR', size_delta_usd: 'DOUBLE',
    position_size_usd: 'DOUBLE', collateral_delta_usd: 'DOUBLE', price: 'DOUBLE', entry_price: 'DOUBLE',
    pnl_delta_usd: 'DOUBLE', fee_usd: 'DOUBLE', borrowing_fee_usd: 'DOUBLE', funding_fee_usd: 'DOUBLE',
    liquidation_fee_usd: 'DOUBLE', fee_total_usd: 'DOUBLE', tx: 'VARCHAR',
  },
  'api/alpha-position-live': {
    current_size_usd: 'DOUBLE', current_collateral_usd: 'DOUBLE', unsettled_borrowing_usd: 'DOUBLE',
    unsettled_funding_usd: 'DOUBLE', claimable_funding_usd: 'DOUBLE', mark_price: 'DOUBLE',
    unrealized_pnl_usd: 'DOUBLE', liquidation_price: 'DOUBLE', updated_at: 'TIMESTAMP',
  },
  'api/alpha-position-span': {
    protocol: 'VARCHAR', address: 'VARCHAR', first_seq: 'BIGINT', last_seq: 'BIGINT',
  },
  'read/lifecycles/alpha-position-tail': { doc: 'VARCHAR' },
  'api/alpha-scope-known': { known: 'BOOLEAN' },
  'api/alpha-scopes-known': { market: 'VARCHAR', market_variant: 'VARCHAR' },
  'api/beta-markets': { market: 'VARCHAR', market_variant: 'VARCHAR' },
  'api/beta-markets-stats': {
    market_variant: 'VARCHAR', market: 'VARCHAR', index_price: 'DOUBLE', open_interest_long_usd: 'DOUBLE',
    open_interest_short_usd: 'DOUBLE', funding_rate_long: 'DOUBLE', funding_rate_short: 'DOUBLE',
    volume_24h_usd: 'DOUBLE', fees_24h_usd: 'DOUBLE', liquidations_24h_usd: 'DOUBLE',
  },
  'read/buckets/edge-fills': {
    seq: 'DOUBLE', market: 'VARCHAR', market_variant: 'VARCHAR', time_ms: 'DOUBLE', liquidation: 'BOOLEAN',
    is_long: 'BOOLEAN', is_short: 'BOOLEAN', size_delta: 'DOUBLE', fee: 'DOUBLE', liquidation_fee: 'DOUBLE',
  },
  'api/fills-address-span': { first_ms: 'BIGINT', last_ms: 'BIGINT' },
  'api/fills-search': {
    seq: 'BIGINT', protocol: 'VARCHAR', position_id: 'BIGINT', address: 'VARCHAR', market: 'VARCHAR',
    market_variant: 'VARCHAR', side: 'VARCHAR', time: 'TIMESTAMP', type: 'VARCHAR',
    size_delta_usd: 'DOUBLE', position_size_usd: 'DOUBLE', collateral_delta_usd: 'DOUBLE', price: 'DOUBLE',
    entry_price: 'DOUBLE', pnl_delta_usd: 'DOUBLE', fee_usd: 'DOUBLE', borrowing_fee_usd: 'DOUBLE',
    funding_fee_usd: 'DOUBLE', liquidation_fee_usd: 'DOUBLE', fee_total_usd: 'DOUBLE', tx: 'VARCHAR',
    time_us: 'BIGINT',
  },
  'api/fills-search-address': {
    seq: 'BIGINT', protocol: 'VARCHAR', position_id: 'BIGINT', address: 'VARCHAR', market: 'VARCHAR',
    market_variant: 'VARCHAR', side: 'VARCHAR', time: 'TIMESTAMP', type: 'VARCHAR',
    size_delta_usd: 'DOUBLE', position_size_usd: 'DOUBLE', collateral_delta_usd: 'DOUBLE', price: 'DOUBLE',
    entry_price: 'DOUBLE', pnl_delta_usd: 'DOUBLE', fee_usd: 'DOUBLE', borrowing_fee_usd: 'DOUBLE',
    funding_fee_usd: 'DOUBLE', liquidation_fee_usd: 'DOUBLE', fee_total_usd: 'DOUBLE', tx: 'VARCHAR',
    time_us: 'BIGINT',
  },
  'read/funding/funding-rates-history': {
    time: 'TIMESTAMP', funding_rate_long: 'DOUBLE', funding_rate_short: 'DOUBLE',
  },
  'api/health-derived': { derived_seq: 'BIGINT', last_fill_time: 'TIMESTAMP', duckdb_bytes: 'DOUBLE' },
  'read/buckets/liquidations-history': {
    time: 'TIMESTAMP', count: 'INTEGER', long_usd: 'DOUBLE', short_usd: 'DOUBLE', total_usd: 'DOUBLE',
    fees_usd: 'DOUBLE',
  },
  'read/buckets/open-interest-history': {
    kind: 'VARCHAR', k: 'VARCHAR', t: 'BIGINT', l: 'VARCHAR', s: 'VARCHAR', f: 'BOOLEAN',
  },
  'read/prices/prices-first-day': { day_ms: 'BIGINT' },
  'api/protocols-stats': {
    protocol: 'VARCHAR', open_interest_usd: 'DOUBLE', volume_24h_usd: 'DOUBLE', fees_24h_usd: 'DOUBLE',
    liquidations_24h_usd: 'DOUBLE', markets: 'INTEGER',
  },
  'read/buckets/volume-history': { time: 'TIMESTAMP', volume_usd: 'DOUBLE', fees_usd: 'DOUBLE' },
  'api/window-fill-edges': { enter: 'DOUBLE', leave: 'DOUBLE' },
  'api/window-snapshot-enter': { enter: 'DOUBLE' },
} as const satisfies Record<string, Record<string, string>>;

/** A query of sql/api/ whose row type is registered. */
export type RowQueryName = keyof typeof QUERY_ROWS;

/**
 * The JavaScript value of a DuckDB column type as the database hands it over (server/db/values.ts
 * `toPlain`): integers, decimals and doubles as numbers, timestamps and dates as ISO strings, lists
 * as arrays; anything rarer as a plain value.
 */
export type ValueOf<T extends string> = T extends `${infer E}[]`
  ? ValueOf<E>[]
  : T extends 'VARCHAR' | 'TIMESTAMP' | 'TIMESTAMP WITH TIME ZONE' | 'DATE'
    ? string
    : T extends 'BOOLEAN'
      ? boolean
      : T extends 'TINYINT' | 'SMALLINT' | 'INTEGER' | 'BIGINT' | 'HUGEINT' | 'UTINYINT' | 'USMALLINT' | 'UINTEGER' | 'UBIGINT' | 'FLOAT' | 'DOUBLE' | `DECIMAL(${string})`
        ? number
        : Plain;

/** The row of query `Q`: every column the SQL returns, each possibly NULL (DuckDB does not say which cannot be). */
export type RowOf<Q extends RowQueryName> = { -readonly [K in keyof (typeof QUERY_ROWS)[Q]]: ValueOf<(typeof QUERY_ROWS)[Q][K] & string> | null };
