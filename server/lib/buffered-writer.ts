/**
 * Appends text and bytes to an open file through one reused buffer. Used for the lifecycle store's
 * GBs of JSON (server/read/lifecycles/lifecycle-segment.ts, lifecycle-accounts.ts): concatenating a chunk's
 * lines into one string and writing that made a ~1 MB flat string per write, which V8 allocates
 * outside the young generation, so the garbage piled up between full collections (the heap of a
 * server writing a first segment grew by ~300 MB). Here each line is encoded into the buffer and
 * dies young.
 */
import { writeSync } from 'node:fs';

/** See the file comment. */
export class BufferedWriter {
  private readonly buf: Buffer;
  private used = 0;
  /** bytes written so far (flushed or not) */
  bytes = 0;

  constructor(
    private readonly fd: number,
    size = 1 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Appends `text` as UTF-8; returns its length in bytes. */
  write(text: string): number {
    // at most 3 bytes per UTF-16 unit: room for that, or write it on its own
    if (text.length * 3 > this.buf.length - this.used) {
      this.flush();
      if (text.length * 3 > this.buf.length) {
        const n = writeSync(this.fd, text);
        this.bytes += n;
        return n;
      }
    }
    const n = this.buf.write(text, this.used);
    this.used += n;
    this.bytes += n;
    return n;
  }

  /** Appends raw bytes. */
  writeBytes(bytes: Uint8Array): void {
    if (bytes.byteLength > this.buf.length - this.used) this.flush();
    if (bytes.byteLength > this.buf.length) writeSync(this.fd, bytes);
    else {
      this.buf.set(bytes, this.used);
      this.used += bytes.byteLength;
    }
    this.bytes += bytes.byteLength;
  }

  /** Writes what the buffer holds to the file. */
  flush(): void {
    let at = 0;
    while (at < this.used) at += writeSync(this.fd, this.buf, at, this.used - at);
    this.used = 0;
  }
}
