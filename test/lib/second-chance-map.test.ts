import { describe, expect, it } from 'vitest';
import { SecondChanceMap } from '../../server/lib/second-chance-map.ts';

/**
 * server/lib/second-chance-map.ts: the weight budget holds after every `set`; the oldest entries
 * go first, one used since it was stored or last passed over after the others (once), the entry
 * being stored never; a kept key is updated in place; deletes and clears keep the weight right.
 */
describe('second-chance map', () => {
  const lengths = (budget: number) => new SecondChanceMap<string, string>(budget, (_, v) => v.length);

  it('drops the oldest entries first to stay within its budget', () => {
    const m = lengths(6);
    for (const k of ['a', 'b', 'c']) m.set(k, 'xx');
    expect(m.weight).toBe(6);
    m.set('d', 'xxx'); // 9: a and b go
    expect([...m.keys()]).toEqual(['c', 'd']);
    expect(m.weight).toBe(5);
  });

  it('gives an entry used since it was stored, or since it was last passed over, one more round', () => {
    const m = lengths(3);
    for (const k of ['a', 'b', 'c']) m.set(k, 'x');
    m.touch('a');
    m.set('d', 'x'); // a is passed over (moved to the newest end, unused), b goes
    expect([...m.keys()]).toEqual(['c', 'd', 'a']);
    m.set('e', 'x'); // c goes: nobody used it
    m.touch('a');
    m.touch('d');
    m.set('f', 'x'); // d and a are passed over, e goes
    expect([...m.keys()]).toEqual(['f', 'd', 'a']);
    m.set('g', 'x'); // their second chance is spent: the oldest, f, goes
    expect([...m.keys()]).toEqual(['d', 'a', 'g']);
    // every other entry used: one round moves them all, then the oldest of them goes, never the new one
    for (const k of ['d', 'a', 'g']) m.touch(k);
    m.set('h', 'x');
    expect([...m.keys()]).toEqual(['h', 'a', 'g']);
  });

  it('marks only on touch: peek, has and iteration change nothing', () => {
    const m = lengths(2);
    m.set('a', 'x');
    m.set('b', 'x');
    expect(m.peek('a')).toBe('x');
    expect(m.has('a')).toBe(true);
    expect([...m]).toEqual([
      ['a', 'x'],
      ['b', 'x'],
    ]);
    m.set('c', 'x');
    expect([...m.keys()]).toEqual(['b', 'c']);
    m.touch('zzz'); // a key not held is not remembered
    m.set('zzz', 'x');
    expect([...m.keys()]).toEqual(['c', 'zzz']);
  });

  it('updates a kept key in place, with its new weight, and keeps its use', () => {
    const m = lengths(5);
    m.set('a', 'x');
    m.set('b', 'x');
    m.touch('a');
    m.set('a', 'xxx'); // in place: still the oldest, still used
    expect([...m.keys()]).toEqual(['a', 'b']);
    expect(m.weight).toBe(4);
    m.set('c', 'xx'); // 6: a is passed over, b goes
    expect([...m.keys()]).toEqual(['c', 'a']);
    expect(m.weight).toBe(5);
  });

  it('keeps the weight right across deletes and clears', () => {
    const m = lengths(10);
    m.set('a', 'xxx');
    m.set('b', 'xx');
    expect(m.delete('a')).toBe(true);
    expect(m.delete('a')).toBe(false);
    expect(m.weight).toBe(2);
    m.touch('b');
    m.clear();
    expect(m.size).toBe(0);
    expect(m.weight).toBe(0);
    m.set('b', 'x'); // its old use was cleared with it
    for (const k of ['c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']) m.set(k, 'x');
    m.set('l', 'x');
    expect(m.has('b')).toBe(false);
  });
});
