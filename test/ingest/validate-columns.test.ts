import { describe, expect, it } from 'vitest';
import { fillsOf, positionSnapshotsOf, toColumns } from '../../server/ingest/columns.ts';
import { InvalidBatchError, validateBatch } from '../../server/ingest/validate.ts';
import {
  FILL_COLUMNS,
  MARKET_SNAPSHOT_COLUMNS,
  POSITION_SNAPSHOT_COLUMNS,
  type IncomingBatch,
  type IncomingFill,
  type IncomingPositionSnapshot,
  type MarketSnapshot,
} from '../../server/journal/rows.ts';
import { fill, marketSnapshot, positionSnapshot } from '../helpers/fixtures.ts';

const FILL_IN = FILL_COLUMNS.filter(([n]) => n !== 'seq' && n !== 'position_id');
const PSNAP_IN = POSITION_SNAPSHOT_COLUMNS.filter(([n]) => n !== 'position_id');

/** A batch as the simulator hands it over: rows decoded from column blocks, the blocks as mirrors. */
function mirrored(fills: IncomingFill[], snaps: IncomingPositionSnapshot[]): IncomingBatch {
  const f = toColumns(fills, FILL_IN);
  const p = toColumns(snaps, PSNAP_IN);
  return { fills: fillsOf(f), marketSnapshots: [], positionSnapshots: positionSnapshotsOf(p), mirrors: { fills: f, positionSnapshots: p } };
}

describe('validation of batches with column mirrors', () => {
  const good = () => [fill({ tx: 'a' }), fill({ tx: 'b', market_variant: null, borrowing_fee_usd: null })];

  it('takes a valid batch', () => {
    expect(() => validateBatch(mirrored(good(), [positionSnapshot({ liquidation_price: null })]))).not.toThrow();
  });

  it.each([
    ['an infinite size', { size_delta_usd: Infinity }, 'size_delta_usd is not a finite number'],
    ['a NaN price', { price: NaN }, 'price is not a finite number'],
    ['an infinite nullable fee', { funding_fee_usd: -Infinity }, 'funding_fee_usd is not a number or null'],
    ['an empty market', { market: '' }, 'market is empty'],
    ['an empty tx', { tx: '' }, 'tx is empty'],
    ['an unknown type', { type: 'flip' as IncomingFill['type'] }, 'unknown type flip'],
    ['an empty variant', { market_variant: '' }, 'market_variant is empty'],
  ] as [string, Partial<IncomingFill>, string][])('rejects a fill with %s, naming the row and the problem', (_, over, problem) => {
    const fills = [...good(), fill({ tx: 'c', ...over })];
    expect(() => validateBatch(mirrored(fills, []))).toThrow(new InvalidBatchError(`fill 2 (${over.tx ?? 'c'}#0): ${problem}`));
  });

  it('rejects a position snapshot with an unknown source or an infinite liquidation price', () => {
    const bad = positionSnapshot({ source: 'guess' as IncomingPositionSnapshot['source'] });
    expect(() => validateBatch(mirrored(good(), [positionSnapshot(), bad]))).toThrow('position snapshot 1: unknown source');
    const inf = positionSnapshot({ liquidation_price: Infinity });
    expect(() => validateBatch(mirrored(good(), [inf]))).toThrow('position snapshot 0: liquidation_price is not a number or null');
  });

  it("checks where a market snapshot's index price came from and when, as rows and as columns", () => {
    const rows = (over: Partial<MarketSnapshot>): IncomingBatch => ({ fills: [], marketSnapshots: [marketSnapshot(), marketSnapshot(over)], positionSnapshots: [] });
    const cols = (over: Partial<MarketSnapshot>): IncomingBatch => ({
      fills: [],
      marketSnapshots: [],
      positionSnapshots: [],
      marketSnapshotColumns: toColumns([marketSnapshot(), marketSnapshot(over)], MARKET_SNAPSHOT_COLUMNS),
    });
    for (const make of [rows, cols]) {
      expect(() => validateBatch(make({ index_price_time: 1_700_000_000_000, index_price_source: 'oracle' }))).not.toThrow();
      expect(() => validateBatch(make({ index_price_time: null, index_price_source: null }))).not.toThrow();
      expect(() => validateBatch(make({ index_price_source: 'guess' as MarketSnapshot['index_price_source'] }))).toThrow(/index_price_source/);
      expect(() => validateBatch(make({ index_price_time: Infinity }))).toThrow(/index_price_time/);
    }
  });
});
