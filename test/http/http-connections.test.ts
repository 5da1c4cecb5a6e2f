/**
 * The HTTP server's connection handling, through a real server on a loopback port: a client that
 * never sends a byte, or trickles its headers, is closed; HEAD answers like GET without a body; the
 * HTTP parser's own refusals (431, 400) carry the contract's error body.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/main/serve.ts';
import { openOneFillServer } from '../helpers/one-fill-server.ts';

let server: RunningServer;
let key: string;
let done: () => Promise<void>;

beforeAll(async () => {
  const s = await openOneFillServer({ plan: 'trial', serve: { connections: { headersMs: 400, requestMs: 800, keepAliveMs: 300, checkEveryMs: 100 } } });
  ({ server, key } = s);
  done = s.close;
});
afterAll(() => done());

/** Opens a raw TCP connection; resolves with everything the server sent and how long until it closed. */
function raw(send?: (s: Socket) => void): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(server.port, '127.0.0.1', () => send?.(socket));
    let text = '';
    socket.on('data', (b) => (text += b.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
  });
}

const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };

describe('connections', () => {
  it('closes a connection that never sends a byte', async () => {
    const r = await raw();
    expect(r.text).toBe('');
    expect(r.closedAfterMs).toBeLessThan(3_000);
  });

  it('closes a client that trickles its headers', async () => {
    const r = await raw((s) => {
      s.write('GET /health HTTP/1.1\r\nHost: x\r\n');
      const timer = setInterval(() => (s.writable ? s.write('x-slow: 1\r\n') : clearInterval(timer)), 150);
      s.on('close', () => clearInterval(timer));
    });
    expect(r.closedAfterMs).toBeLessThan(3_000);
    if (r.text) expect(r.text).toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers HEAD like GET without a body', async () => {
    const base = server.url.replace(/\/$/, '');
    for (const path of ['/v1/protocols', '/health']) {
      const get = await fetch(`${base}${path}`, { headers: { 'x-api-key': key } });
      const head = await fetch(`${base}${path}`, { method: 'HEAD', headers: { 'x-api-key': key } });
      expect(head.status).toBe(get.status);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
      expect((await get.text()).length).toBeGreaterThan(0);
    }
    const post = await fetch(`${base}/v1/protocols`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers an oversized header with 431 and the error body', async () => {
    const r = await raw((s) => s.write(`GET /v1/protocols HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`));
    expect(r.text).toMatch(/^HTTP\/1\.1 431 /);
    expect(r.text).toMatch(/x-request-id: [0-9a-f-]{36}/);
    expect(bodyOf(r.text)).toEqual({ error: { code: 'headers_too_large', message: 'The request headers are too large.' } });
  });

  it('answers a malformed request line with 400 and the error body', async () => {
    for (const line of ['GARBAGE\r\n\r\n', 'GET /v1/protocols HTTP/9.9\r\n\r\n', 'G@T / HTTP/1.1\r\n\r\n']) {
      const r = await raw((s) => s.write(line));
      expect(r.text, line).toMatch(/^HTTP\/1\.1 400 /);
      expect(bodyOf(r.text).error.code).toBe('bad_request');
    }
  });
});
