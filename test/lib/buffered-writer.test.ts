/**
 * server/lib/buffered-writer.ts: what is appended through the reused buffer is the file's content, in order,
 * and `bytes` / the returned lengths are UTF-8 byte counts (the lifecycle store's offsets), for text
 * smaller and larger than the buffer, multi-byte characters, and raw bytes between them.
 */
import { describe, expect, it } from 'vitest';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferedWriter } from '../../server/lib/buffered-writer.ts';

describe('BufferedWriter', () => {
  it('writes everything in order with UTF-8 byte counts', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'buffered-writer-')), 'out');
    const fd = openSync(path, 'w');
    const out = new BufferedWriter(fd, 64);
    const parts: Buffer[] = [];
    const offsets: number[] = [];
    for (let i = 0; i < 200; i++) {
      offsets.push(out.bytes);
      if (i % 7 === 3) {
        const raw = Uint8Array.from({ length: i % 90 }, (_, j) => (i + j) % 256);
        out.writeBytes(raw);
        parts.push(Buffer.from(raw));
        continue;
      }
      const text = `${i}:${'é€'.repeat(i % 5)}${'x'.repeat((i * 13) % 150)}\n`;
      expect(out.write(text)).toBe(Buffer.byteLength(text));
      parts.push(Buffer.from(text));
    }
    out.flush();
    closeSync(fd);
    const expected = Buffer.concat(parts);
    expect(out.bytes).toBe(expected.length);
    expect(readFileSync(path).equals(expected)).toBe(true);
    // every offset is where its part starts
    let at = 0;
    parts.forEach((part, i) => {
      expect(offsets[i]).toBe(at);
      at += part.length;
    });
  });
});
