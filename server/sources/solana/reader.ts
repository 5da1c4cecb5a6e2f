/**
 * A little-endian reader over one event body or account: Borsh fields read in their declared
 * order, so an `Option` (a u8 tag, then the value only when the tag is 1) moves every later field
 * as the program's serializer does; fixed-offset layouts (zero-copy accounts) move to a field's
 * offset first with `at`. Reading past the end, or a tag that is neither 0 nor 1, throws a
 * `LayoutError` naming the field: the caller skips the event or account, it never guesses.
 */
import { bytesToBase58 } from './base58.ts';

export class LayoutError extends Error {}

export class ByteReader {
  private readonly view: DataView;
  offset = 0;

  constructor(
    readonly bytes: Uint8Array,
    readonly what: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private take(n: number, field: string): number {
    if (this.offset + n > this.bytes.length) {
      throw new LayoutError(`${this.what}: ${this.bytes.length} bytes end inside ${field} (needs ${this.offset + n})`);
    }
    const at = this.offset;
    this.offset += n;
    return at;
  }

  /** Moves to `offset` (counted from the first byte, discriminator included) for the next read. */
  at(offset: number): this {
    if (offset < 0 || offset > this.bytes.length) throw new LayoutError(`${this.what}: offset ${offset} lies outside its ${this.bytes.length} bytes`);
    this.offset = offset;
    return this;
  }

  u8(field: string): number {
    return this.view.getUint8(this.take(1, field));
  }

  i8(field: string): number {
    return this.view.getInt8(this.take(1, field));
  }

  bool(field: string): boolean {
    const v = this.u8(field);
    if (v > 1) throw new LayoutError(`${this.what}: ${field} is ${v}, not a bool`);
    return v === 1;
  }

  u32(field: string): number {
    return this.view.getUint32(this.take(4, field), true);
  }

  i32(field: string): number {
    return this.view.getInt32(this.take(4, field), true);
  }

  u64(field: string): bigint {
    return this.view.getBigUint64(this.take(8, field), true);
  }

  i64(field: string): bigint {
    return this.view.getBigInt64(this.take(8, field), true);
  }

  u128(field: string): bigint {
    const at = this.take(16, field);
    return this.view.getBigUint64(at, true) | (this.view.getBigUint64(at + 8, true) << 64n);
  }

  i128(field: string): bigint {
    const at = this.take(16, field);
    return this.view.getBigUint64(at, true) | (this.view.getBigInt64(at + 8, true) << 64n);
  }

  pubkey(field: string): string {
    const at = this.take(32, field);
    return bytesToBase58(this.bytes.subarray(at, at + 32));
  }

  skip(n: number, field: string): void {
    this.take(n, field);
  }

  /** Borsh `Option<T>`: null for None. */
  option<T>(field: string, read: (field: string) => T): T | null {
    const tag = this.u8(`${field} (Option tag)`);
    if (tag === 0) return null;
    if (tag !== 1) throw new LayoutError(`${this.what}: ${field} has Option tag ${tag}`);
    return read(field);
  }

  /** A NUL-padded UTF-8 string of `len` bytes (a fixed-size name). */
  fixedString(field: string, len: number): string {
    const at = this.take(len, field);
    const raw = this.bytes.subarray(at, at + len);
    const end = raw.indexOf(0);
    return new TextDecoder().decode(end < 0 ? raw : raw.subarray(0, end));
  }

  /** Borsh `String`: u32 length, then UTF-8. */
  string(field: string, maxLen: number): string {
    const len = this.u32(`${field} (length)`);
    if (len > maxLen) throw new LayoutError(`${this.what}: ${field} is ${len} bytes long (at most ${maxLen})`);
    const at = this.take(len, field);
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes.subarray(at, at + len));
  }

  /** Throws unless every byte was read: a body of an undocumented length is never half-trusted. */
  end(): void {
    if (this.remaining !== 0) throw new LayoutError(`${this.what}: ${this.remaining} bytes left after the last documented field (${this.bytes.length} in all)`);
  }
}
