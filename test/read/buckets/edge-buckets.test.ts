import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, vi } from 'vitest';
import { EdgeBuckets, edgeFillOf, type EdgeFill } from '../../../server/read/buckets/edge-buckets.ts';
import type { Fill } from '../../../server/journal/rows.ts';
import { at, fill as incomingFill, tempService } from '../../helpers/fixtures.ts';
import { bucketsAhead, movingSpans, prefetchEdges } from '../../../server/read/buckets/edge-prefetch.ts';
import type { HistoryMirror } from '../../../server/read/buckets/history-mirror.ts';

/**
 * The cache of edge buckets (server/read/buckets/edge-buckets.ts) on a fake reader: one read per bucket,
 * shared while under way, least recently used dropped past capacity, and never a bucket kept from
 * before a change that touched it.
 */
const M5 = 300_000;
const fill = (timeMs: number, seq = 1): EdgeFill => ({
  seq,
  market: 'SOL-PERP',
  market_variant: null,
  time_ms: timeMs,
  liquidation: false,
  is_long: true,
  is_short: false,
  size_delta: 1,
  fee: 0,
  liquidation_fee: 0,
});

/** A reader whose reads finish when the test says so; `version` is what the journal holds now. */
function fakeReader() {
  const reads: number[] = [];
  const waiting: (() => void)[] = [];
  let version = 0;
  const read = (lo: number): Promise<EdgeFill[]> => {
    reads.push(lo);
    const seen = version; // the snapshot a read sees is taken when it starts
    return new Promise((resolve) => waiting.push(() => resolve([fill(lo + seen)])));
  };
  return { read, reads, finish: () => waiting.splice(0).forEach((f) => f()), bump: () => void version++ };
}

describe('edge buckets', () => {
  it('reads a bucket once, shares a read under way, and keeps the most recently used', async () => {
    const r = fakeReader();
    const edges = new EdgeBuckets(r.read, 2);
    const [a, b] = [edges.fills(0), edges.fills(0)];
    r.finish();
    expect(await a).toBe(await b);
    expect(r.reads).toEqual([0]);
    await edges.fills(0);
    expect(r.reads).toEqual([0]);
    for (const start of [M5, 0, 2 * M5]) {
      // 0 is used again before the third bucket comes
      const p = edges.fills(start);
      r.finish();
      await p;
    }
    expect(edges.size).toBe(2);
    const again = edges.fills(M5); // the least recently used one was dropped
    r.finish();
    await again;
    expect(r.reads).toEqual([0, M5, 2 * M5, M5]);
  });

  it('forgets the buckets a change meets, and keeps no read that a change overtook', async () => {
    const r = fakeReader();
    const edges = new EdgeBuckets(r.read);
    for (const start of [0, M5, 2 * M5]) {
      const p = edges.fills(start);
      r.finish();
      await p;
    }
    r.bump();
    edges.forget(M5 + 10, M5 + 20); // inside the second bucket only
    expect(edges.size).toBe(2);
    const p = edges.fills(M5);
    r.finish();
    expect((await p)[0]!.time_ms).toBe(M5 + 1);
    // a read under way when a change comes: served to who asked, not kept, not shared after
    const under = edges.fills(3 * M5);
    r.bump();
    edges.forget(3 * M5 + 1, 3 * M5 + 1);
    const later = edges.fills(3 * M5);
    r.finish();
    expect((await under)[0]!.time_ms).toBe(3 * M5 + 1);
    expect((await later)[0]!.time_ms).toBe(3 * M5 + 2);
    const kept = await edges.fills(3 * M5);
    expect(kept[0]!.time_ms).toBe(3 * M5 + 2);
    expect(r.reads.filter((x) => x === 3 * M5)).toHaveLength(2);
    const held = edges.size;
    const alone = edges.fills(4 * M5);
    r.bump();
    edges.forget(100 * M5, 100 * M5); // another bucket: the read may still predate a change of its own, so it is not kept
    r.finish();
    await alone;
    expect(edges.size).toBe(held);
    // a change that spans everything forgets everything
    edges.forget(-Infinity, Infinity);
    expect(edges.size).toBe(0);
  });
});

/** A committed fill at `timeMs` (epoch ms) with `seq`. */
const committed = (timeMs: number, seq: number, over: Partial<Fill> = {}): Fill => ({ ...incomingFill({ time: timeMs }), seq, position_id: seq, ...over });

describe('edge buckets after an append', () => {
  it('adds its alpha fills to the kept buckets they fall in, each once, and reads nothing', async () => {
    const r = fakeReader();
    const edges = new EdgeBuckets(r.read);
    const p = edges.fills(0);
    r.finish();
    expect((await p).map((f) => f.seq)).toEqual([1]); // the reader's row: seq 1 at time 0
    const under = edges.fills(2 * M5); // a read under way when the append's change comes
    edges.add([
      committed(10, 1), // already in the kept bucket (read after the commit, before this call)
      committed(20, 2),
      committed(M5 - 1, 3),
      committed(M5 + 5, 4), // a bucket not kept: left to its first read
      committed(30, 5, { protocol: 'beta' }), // not alpha
    ]);
    expect((await edges.fills(0)).map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(edges.size).toBe(1);
    r.finish();
    await under;
    expect(edges.size, 'the read under way is served, not kept').toBe(1);
    expect(r.reads).toEqual([0, 2 * M5]);
  });

  it('makes the row sql/read/buckets/edge-fills.sql reads, to the micro-dollar', async () => {
    // amounts as a source may send them: more than six decimals, half-micro ties, negatives
    const amounts = [-2.0000005, 1.2345675, -0.0000005, 0.0000005, 3.9999995, -1234.5678915, 0.1 + 0.2, 987654.3210005];
    const t0 = at('2026-06-01T00:00:00Z');
    const { service, cleanup } = await tempService();
    try {
      const { fills } = await service.append({
        fills: [
          ...amounts.map((usd, i) =>
            incomingFill({
              time: t0 + i * 1000,
              position_key: `P${i}`,
              side: i % 2 ? 'short' : 'long',
              size_delta_usd: usd,
              fee_usd: Math.abs(usd) / 7,
            }),
          ),
          // a liquidation, with its fee
          incomingFill({ time: t0 + 60_000, position_key: 'P0', type: 'liquidation', size_delta_usd: 2.0000005, liquidation_fee_usd: 0.1234565 }),
        ],
        marketSnapshots: [],
        positionSnapshots: [],
      });
      const sql = await service.db.query('read/buckets/edge-fills', { protocol: 'alpha', lo: t0, hi: t0 + M5 });
      expect(fills.map(edgeFillOf)).toEqual([...sql].sort((a, b) => Number(a.seq) - Number(b.seq)));
    } finally {
      await cleanup();
    }
  });

  it('rounds as DuckDB casts a double to DECIMAL(18,6) and back, on 210,000 values', async () => {
    const xs: number[] = [];
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let k = 0; k < 30_000; k++) {
      const micros = Math.floor(rand() * 1e9);
      xs.push((micros + 0.5) / 1e6, -(micros + 0.5) / 1e6, micros / 1e6, -micros / 1e6, (rand() - 0.5) * 1e6, (rand() - 0.5) * 10, (Math.floor(rand() * 1e12) + 0.5) / 1e6);
    }
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      await conn.run('CREATE TABLE t (i INTEGER, x DOUBLE)');
      const ap = await conn.createAppender('t');
      xs.forEach((x, i) => {
        ap.appendInteger(i);
        ap.appendDouble(x);
        ap.endRow();
      });
      ap.closeSync();
      // the staging's cast (server/journal/stage.ts), then edge-fills.sql's expression
      const rows = (await conn.runAndReadAll('SELECT round(x::DECIMAL(18,6)::DOUBLE * 1000000) FROM t ORDER BY i')).getRows();
      const ours = xs.map((x) => edgeFillOf(committed(0, 1, { size_delta_usd: x })).size_delta);
      const misses = ours.filter((m, i) => m !== Number(rows[i]![0]) && !(m === 0 && Number(rows[i]![0]) === 0));
      expect(misses).toEqual([]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });
});

describe('edge prefetch', () => {
  it('knows where moving starts are: the default spans and the plan floors', () => {
    const spans = movingSpans();
    for (const days of [1, 3, 7, 30, 365]) expect(spans).toContain(days * 86_400_000);
    expect(spans).toContain(90 * 86_400_000); // the pro plan's floor, no default span
    expect(new Set(spans).size).toBe(spans.length);
  });

  it('looks at the mirror until stopped, then never again', async () => {
    vi.useFakeTimers();
    try {
      let looks = 0;
      // a mirror that never loads: the loop looks again every 2 s
      const mirror = {
        current: async () => {
          looks++;
          return undefined;
        },
      } as unknown as HistoryMirror;
      const stop = prefetchEdges(mirror, () => 0);
      await vi.advanceTimersByTimeAsync(4_100);
      expect(looks).toBe(3);
      stop();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(looks).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the bucket a start is in, and the next one when the start reaches it before the next tick', () => {
    const day = 86_400_000;
    const at = Date.UTC(2026, 4, 6, 12, 0, 0);
    expect(bucketsAhead(at + 60_000, 60_000, [day])).toEqual([at - day]);
    expect(bucketsAhead(at + 4 * 60_000 + 30_000, 60_000, [day])).toEqual([at - day, at - day + M5]);
    expect(bucketsAhead(at + 4 * 60_000, 60_000, [day, 3 * day]).sort()).toEqual([at - 3 * day, at - day].sort()); // reaching a start: aligned, no edge
  });
});
