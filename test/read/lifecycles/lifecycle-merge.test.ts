/**
 * The lifecycle store's merge policy (server/read/lifecycles/lifecycle-merge.ts `shouldMergeLast`): over years
 * of segments of ~20,000 closes each, the store keeps a few segments (so a few open files and
 * lookups per request) and rewrites each lifecycle a logarithmic number of times.
 */
import { describe, expect, it } from 'vitest';
import { shouldMergeLast } from '../../../server/read/lifecycles/lifecycle-merge.ts';

describe('shouldMergeLast', () => {
  it('keeps O(log n) segments and rewrites each lifecycle O(log n) times', () => {
    const counts = [1_836_301]; // the bench journal's first segment
    let written = counts[0]!;
    let most = 1;
    for (let i = 0; i < 2_000; i++) {
      // 40M closes: decades of live mode
      counts.push(20_000 - (i % 7) * 1_000);
      written += counts.at(-1)!;
      while (shouldMergeLast(counts)) {
        const merged = counts.pop()! + counts.pop()!;
        counts.push(merged);
        written += merged;
      }
      most = Math.max(most, counts.length);
    }
    const total = counts.reduce((a, b) => a + b, 0);
    expect(most).toBeLessThanOrEqual(12);
    expect(written / total).toBeLessThan(Math.log2(2_000) + 2);
    // counts fall from the oldest segment to the newest
    for (let i = 1; i < counts.length; i++) expect(counts[i - 1]!).toBeGreaterThan(counts[i]!);
  });

  it('never merges a lone segment', () => {
    expect(shouldMergeLast([])).toBe(false);
    expect(shouldMergeLast([5])).toBe(false);
    expect(shouldMergeLast([40, 20])).toBe(true);
    expect(shouldMergeLast([41, 20])).toBe(false);
  });
});
