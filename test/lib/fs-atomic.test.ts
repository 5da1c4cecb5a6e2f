import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicAsync } from '../../server/lib/fs-atomic.ts';
import { tempDataDir } from '../helpers/fixtures.ts';

const { dir, cleanup } = tempDataDir();
afterAll(cleanup);

const writers = {
  sync: async (path: string, text: string | Uint8Array, mode?: number) => writeFileAtomic(path, text, mode),
  async: writeFileAtomicAsync,
};

describe.each(Object.entries(writers))('writeFileAtomic (%s)', (name, write) => {
  const home = join(dir, name);
  mkdirSync(home, { recursive: true });

  it('writes the text or bytes with exactly the mode asked, replacing what was there, and leaves no temp file', async () => {
    const path = join(home, 'doc.json');
    writeFileSync(path, 'old');
    await write(path, '{"a":1}', 0o600);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await write(path, new Uint8Array([1, 2, 3]));
    expect([...readFileSync(path)]).toEqual([1, 2, 3]);
    expect(statSync(path).mode & 0o777).toBe(0o644);
    expect(readdirSync(home).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });

  it('throws when the rename fails and removes its temp file', async () => {
    const target = join(home, 'a-directory');
    mkdirSync(join(target, 'inside'), { recursive: true });
    await expect(write(target, 'x')).rejects.toThrow();
    expect(readdirSync(home).filter((f) => f.startsWith('.tmp-'))).toEqual([]);
  });
});
