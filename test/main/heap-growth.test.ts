import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEAP_GROWING_PERCENT, heapGrowingPercentFrom, heapGrowthFlag } from '../../server/main/commands/heap-growth.ts';

describe('V8 heap growth of a serving process (PERPS_V8_HEAP_GROWING_PERCENT)', () => {
  it('defaults to a full collection at twice the surviving heap; 0 leaves V8 its own heuristic', () => {
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(100);
    expect(heapGrowingPercentFrom({})).toBe(100);
    expect(heapGrowingPercentFrom({ PERPS_V8_HEAP_GROWING_PERCENT: '' })).toBe(100);
    expect(heapGrowingPercentFrom({ PERPS_V8_HEAP_GROWING_PERCENT: '50' })).toBe(50);
    expect(heapGrowingPercentFrom({ PERPS_V8_HEAP_GROWING_PERCENT: ' 250 ' })).toBe(250);
    expect(heapGrowingPercentFrom({ PERPS_V8_HEAP_GROWING_PERCENT: '0' })).toBeNull();
  });

  it('refuses anything but a whole number of percent, naming the variable', () => {
    for (const bad of ['-10', '1.5', 'fast', '1e3', '100%', '99999']) {
      expect(() => heapGrowingPercentFrom({ PERPS_V8_HEAP_GROWING_PERCENT: bad }), bad).toThrow(/PERPS_V8_HEAP_GROWING_PERCENT/);
    }
  });

  it('is an option this Node accepts (V8 ignores an unknown one set at run time; node refuses it)', () => {
    const ok = spawnSync(process.execPath, [heapGrowthFlag(100), '-e', '0'], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    const misspelt = spawnSync(process.execPath, ['--heap-growth-percent=100', '-e', '0'], { encoding: 'utf8' });
    expect(misspelt.status).not.toBe(0);
  });
});
