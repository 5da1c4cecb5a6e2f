/**
 * The hand-built journal of the compaction tests (test/jobs-compaction*.test.ts): three commits
 * per closed day and one on today, the API answers that must not change and the journal's rows.
 */
import { join } from 'node:path';
import type { IncomingBatch } from '../../server/journal/rows.ts';
import type { Service } from '../../server/service.ts';
import type { TestApp } from './app.ts';
import { at, fill, marketSnapshot, positionSnapshot } from './fixtures.ts';

export const NOW = at('2026-06-03T00:30:00Z');
export const A = 'AddrA111111111111111111111111111111111111111';
export const B = 'AddrB111111111111111111111111111111111111111';

/**
 * Three commits per closed day (06-01, 06-02) plus one on today (06-03): fills of two positions
 * (P1 opened on 06-01 and closed on 06-02, P2 open), market snapshots, event snapshots and three
 * polls of P2 on 06-01 (two in one commit, one in the next) and two on 06-02.
 */
export function batches(): IncomingBatch[] {
  const day = (d: string, hh: string) => at(`2026-06-${d}T${hh}:00Z`);
  const ms = (t: number, price: number) => marketSnapshot({ time: t, index_price: price, oi_long_usd: price * 10, funding_rate_long: price / 1e6 });
  const poll = (t: number, mark: number) => positionSnapshot({ time: t, position_key: 'P2', source: 'poll', mark_price: mark, size_usd: 2000, collateral_usd: 300 });
  return [
    {
      fills: [
        fill({ time: day('01', '01:00'), position_key: 'P1', address: A }),
        fill({ time: day('01', '01:30'), position_key: 'P2', address: B, size_delta_usd: 2000, position_size_usd: 2000, collateral_delta_usd: 300, position_collateral_usd: 300 }),
      ],
      marketSnapshots: [ms(day('01', '01:00'), 100), ms(day('01', '01:05'), 101)],
      positionSnapshots: [positionSnapshot({ time: day('01', '01:00'), position_key: 'P1' }), poll(day('01', '02:00'), 102), poll(day('01', '03:00'), 103)],
    },
    {
      fills: [fill({ time: day('01', '05:00'), position_key: 'P1', address: A, type: 'increase', size_delta_usd: 500, position_size_usd: 1500, price: 104, index_price: 104 })],
      marketSnapshots: [ms(day('01', '05:00'), 104)],
      positionSnapshots: [poll(day('01', '06:00'), 106)],
    },
    {
      fills: [],
      marketSnapshots: [ms(day('01', '23:55'), 99)],
      positionSnapshots: [],
    },
    {
      fills: [
        fill({
          time: day('02', '01:00'),
          position_key: 'P1',
          address: A,
          type: 'close',
          size_delta_usd: -1500,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          price: 110,
          index_price: 110,
          pnl_delta_usd: 90,
        }),
      ],
      marketSnapshots: [ms(day('02', '01:00'), 110)],
      positionSnapshots: [poll(day('02', '02:00'), 111)],
    },
    {
      fills: [
        fill({
          time: day('02', '03:00'),
          position_key: 'P2',
          address: B,
          type: 'decrease',
          size_delta_usd: -500,
          position_size_usd: 1500,
          collateral_delta_usd: -50,
          position_collateral_usd: 250,
          price: 112,
          index_price: 112,
          pnl_delta_usd: 12,
        }),
      ],
      marketSnapshots: [ms(day('02', '03:00'), 112)],
      positionSnapshots: [poll(day('02', '04:00'), 113)],
    },
    {
      fills: [fill({ time: day('03', '00:10'), position_key: 'P3', address: A })],
      marketSnapshots: [ms(day('03', '00:10'), 115)],
      positionSnapshots: [positionSnapshot({ time: day('03', '00:10'), position_key: 'P3' })],
    },
  ];
}

export const URLS = [
  '/v1/protocols/stats',
  '/v1/alpha/markets/stats',
  `/v1/alpha/accounts/${A}`,
  `/v1/alpha/accounts/${B}/history`,
  '/v1/alpha/open-positions/search?limit=100',
  '/v1/alpha/open-positions/stats',
  '/v1/alpha/volume/history?interval=5m&from=2026-06-01T00:00:00Z&to=2026-06-03T00:00:00Z',
  '/v1/alpha/open-interest/history?interval=5m&from=2026-06-01T00:00:00Z&to=2026-06-03T00:00:00Z',
  '/v1/alpha/funding-rates/history?market_variant=SOL/USD%5BWSOL-USDC%5D&from=2026-06-01T00:00:00Z&to=2026-06-03T00:00:00Z',
  '/v1/alpha/liquidations/history?from=2026-06-01T00:00:00Z&to=2026-06-03T00:00:00Z',
];

export async function answers(t: TestApp, app = t.app): Promise<unknown[]> {
  const out = [];
  for (const url of URLS) {
    const res = await app.request(url, { headers: { 'x-api-key': t.key('internal') } });
    out.push({ url, status: res.status, body: await res.json() });
  }
  return out;
}

export async function journalRows(t: TestApp, kind: string, service: Service = t.service): Promise<Record<string, unknown>[]> {
  const glob = join(t.dir, 'journal', kind, '**', '*.parquet');
  return service.db.querySql(`SELECT * EXCLUDE (day) FROM read_parquet('${glob}', hive_partitioning = true) ORDER BY ALL`);
}
