import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingFill, IncomingPositionSnapshot, MarketSnapshot } from '../../server/journal/rows.ts';
import { openService, type Service } from '../../server/service.ts';

/** epoch ms of an ISO time, for readable fixtures */
export const at = (iso: string): number => Date.parse(iso);

let txCounter = 0;

/**
 * A fill with sensible defaults (alpha, SOL/USD[WSOL-USDC], long, open of $1,000 at $100,
 * collateral $100, fee $0.50). Override what the test is about; `tx` is unique per call.
 */
export function fill(over: Partial<IncomingFill> = {}): IncomingFill {
  txCounter += 1;
  const time = over.time ?? at('2026-06-01T00:00:00Z');
  return {
    protocol: 'alpha',
    time,
    slot: Math.floor(time / 400),
    tx: `tx${String(txCounter).padStart(6, '0')}`,
    event_index: 0,
    position_key: 'POS1',
    address: 'Addr1111111111111111111111111111111111111111',
    market: 'SOL-PERP',
    market_variant: 'SOL/USD[WSOL-USDC]',
    side: 'long',
    type: 'open',
    size_delta_usd: 1000,
    position_size_usd: 1000,
    collateral_delta_usd: 100,
    position_collateral_usd: 100,
    price: 100,
    entry_price: 100,
    pnl_delta_usd: 0,
    fee_usd: 0.5,
    borrowing_fee_usd: null,
    funding_fee_usd: null,
    liquidation_fee_usd: null,
    funding_earned_usd: null,
    fee_total_usd: 0.5,
    index_price: 100,
    collateral_token: 'USDC',
    position_entry_price: null,
    ...over,
  };
}

/** A market snapshot with defaults (alpha SOL/USD[WSOL-USDC], price $100, no OI, zero rates). */
export function marketSnapshot(over: Partial<MarketSnapshot> = {}): MarketSnapshot {
  return {
    time: at('2026-06-01T00:00:00Z'),
    protocol: 'alpha',
    market: 'SOL-PERP',
    market_variant: 'SOL/USD[WSOL-USDC]',
    index_price: 100,
    oi_long_usd: 0,
    oi_short_usd: 0,
    funding_rate_long: 0,
    funding_rate_short: 0,
    borrowing_rate_long: 0,
    borrowing_rate_short: 0,
    funding_rate_raw: 0,
    cum_borrowing_long: 0,
    cum_borrowing_short: 0,
    cum_funding_paid_long: 0,
    cum_funding_paid_short: 0,
    cum_funding_earned_long: 0,
    cum_funding_earned_short: 0,
    index_price_time: null,
    index_price_source: null,
    ...over,
  };
}

/** A position snapshot with defaults (alpha POS1, $1,000 size, $100 collateral, event source). */
export function positionSnapshot(over: Partial<IncomingPositionSnapshot> = {}): IncomingPositionSnapshot {
  return {
    time: at('2026-06-01T00:00:00Z'),
    protocol: 'alpha',
    position_key: 'POS1',
    size_usd: 1000,
    collateral_usd: 100,
    unsettled_borrowing_usd: 0,
    unsettled_funding_usd: 0,
    claimable_funding_usd: 0,
    mark_price: 100,
    liquidation_price: null,
    source: 'event',
    ...over,
  };
}

/** A fresh temporary data directory, removed by the returned cleanup. */
export function tempDataDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'perps-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Opens a service on a fresh temp data dir with a pinned clock. */
export async function tempService(now = at('2026-06-02T00:00:00Z')): Promise<{ service: Service; dir: string; cleanup: () => Promise<void> }> {
  const { dir, cleanup } = tempDataDir();
  const service = await openService({ dataDir: dir, clock: () => now });
  return {
    service,
    dir,
    cleanup: async () => {
      await service.close();
      cleanup();
    },
  };
}
