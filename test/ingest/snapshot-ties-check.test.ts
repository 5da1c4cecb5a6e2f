import { describe, expect, it } from 'vitest';
import { toColumns } from '../../server/ingest/columns.ts';
import { mayHaveSameInstantTies } from '../../server/ingest/snapshot-ties.ts';
import { MARKET_SNAPSHOT_COLUMNS, type IncomingBatch, type MarketSnapshot } from '../../server/journal/rows.ts';
import { at, marketSnapshot } from '../helpers/fixtures.ts';

const t = at('2026-06-01T00:00:00Z');
const snap = (minute: number, market: string, variant: string | null, protocol: 'alpha' | 'beta' = 'alpha'): MarketSnapshot =>
  marketSnapshot({ time: t + minute * 60_000, protocol, market, market_variant: variant });
const asRows = (s: MarketSnapshot[]): IncomingBatch => ({ fills: [], marketSnapshots: s, positionSnapshots: [] });
const asColumns = (s: MarketSnapshot[]): IncomingBatch => ({
  fills: [],
  marketSnapshots: [],
  positionSnapshots: [],
  marketSnapshotColumns: toColumns(s, MARKET_SNAPSHOT_COLUMNS),
});

describe.each([
  ['rows', asRows],
  ['columns', asColumns],
] as const)('mayHaveSameInstantTies on %s', (_, batchOf) => {
  it('is false for one snapshot per market key and instant, in time order', () => {
    const s = [0, 1, 2].flatMap((m) => [snap(m, 'SOL', 'SOL/USDC'), snap(m, 'SOL', 'SOL/USDT'), snap(m, 'SOL', null), snap(m, 'SOL', null, 'beta'), snap(m, 'BTC', null)]);
    expect(mayHaveSameInstantTies(batchOf(s))).toBe(false);
    expect(mayHaveSameInstantTies(batchOf([]))).toBe(false);
  });

  it('finds a repeated market key at one instant, wherever it sits in the run', () => {
    expect(mayHaveSameInstantTies(batchOf([snap(0, 'SOL', null), snap(1, 'BTC', null), snap(1, 'SOL', null), snap(1, 'BTC', null)]))).toBe(true);
    expect(mayHaveSameInstantTies(batchOf([snap(0, 'SOL', 'SOL/USDC'), snap(0, 'SOL', 'SOL/USDC')]))).toBe(true);
    expect(mayHaveSameInstantTies(batchOf([snap(0, 'SOL', null, 'beta'), snap(0, 'SOL', null, 'beta')]))).toBe(true);
  });

  it('finds a repeat in a long run of one instant (past the pairwise checks)', () => {
    const run = Array.from({ length: 100 }, (_, i) => snap(0, `M${i}`, null));
    expect(mayHaveSameInstantTies(batchOf(run))).toBe(false);
    expect(mayHaveSameInstantTies(batchOf([...run, snap(0, 'M3', null)]))).toBe(true);
  });

  it('answers true for rows out of time order (the SQL decides)', () => {
    expect(mayHaveSameInstantTies(batchOf([snap(1, 'SOL', null), snap(0, 'BTC', null)]))).toBe(true);
  });
});

it('mayHaveSameInstantTies reads a dictionary that repeats a string as one market', () => {
  const block = toColumns([snap(0, 'SOL', null), snap(0, 'BTC', null)], MARKET_SNAPSHOT_COLUMNS);
  const market = block.columns.market as { codes: Int32Array; dict: string[] };
  // the second row's market spelled through another code of the same string
  block.columns.market = { codes: Int32Array.from([0, 1]), dict: [market.dict[0]!, market.dict[0]!] };
  expect(mayHaveSameInstantTies({ fills: [], marketSnapshots: [], positionSnapshots: [], marketSnapshotColumns: block })).toBe(true);
});
