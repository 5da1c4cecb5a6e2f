/**
 * Fills stream sockets over time, through a real server: a slow consumer is closed with
 * slow_consumer / 1013 while a fast one keeps receiving; pings and the silent-peer drop (with
 * short intervals); shutdown closes every socket with 1001.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { at, fill } from '../helpers/fixtures.ts';
import { connect, openStreamServer, type StreamServer } from '../helpers/stream.ts';

const NOW = at('2026-06-02T00:00:00Z');
const FILLS = '/v1/stream/alpha/fills';

let s: StreamServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

let n = 0;
/** `count` fills of one lifecycle (cheaper to append than as many lifecycles) */
const many = (count: number) => Array.from({ length: count }, () => fill({ position_key: 'L', type: n++ === 0 ? 'open' : 'increase', tx: `slow-${n}` }));

describe('back-pressure', () => {
  test('a client that stops reading is closed with slow_consumer; a fast one gets every fill', async () => {
    s = await openStreamServer(NOW);
    await s.append(many(1));
    const key = s.key('premium');
    const fast = connect(s.base, FILLS, key);
    const slow = connect(s.base, FILLS, key);
    await Promise.all([fast.opened, slow.opened]);
    await expect.poll(() => s!.server.stream.size).toBe(2);
    // the slow client stops reading its socket: the server's unsent bytes grow past the
    // kernel's buffers and then past 1 MiB
    slow.ws.pause();
    const appended: number[] = [];
    for (let round = 0; round < 15 && s.server.stream.size === 2; round++) {
      appended.push(...(await s.append(many(6_000)))); // ~3.4 MB of frames in one append
      await fast.until(() => fast.seqs().at(-1) === appended.at(-1));
    }
    expect(s.server.stream.size).toBe(1); // the slow one is no longer served
    // the fast one kept receiving, every fill once and in order, and still does
    appended.push(...(await s.append(many(10))));
    await fast.until(() => fast.seqs().at(-1) === appended.at(-1));
    expect(fast.seqs()).toEqual(appended);

    slow.ws.resume();
    expect(await slow.closed).toEqual({ code: 1013, reason: 'slow_consumer' });
    const error = slow.frames.at(-1)!.error!;
    expect(error.code).toBe('slow_consumer');
    // what it got is a gap-free prefix, and the error names where to resume
    const got = slow.seqs();
    expect(got).toEqual(appended.slice(0, got.length));
    expect(got.length).toBeLessThan(appended.length);
    expect(error.message).toContain(`since_seq=${got.at(-1)}`);
  });
});

describe('heartbeat', () => {
  test('pings every pingMs; a peer that answers stays, one silent for silentMs is dropped', async () => {
    s = await openStreamServer(NOW, { pingMs: 100, silentMs: 400 });
    const key = s.key('premium');
    const live = connect(s.base, FILLS, key);
    // the server counts the mute peer's silence from its open, which comes after this instant
    // (the clients' opened events, later still, can lag it by a busy moment)
    const connectedBefore = Date.now();
    const mute = connect(s.base, FILLS, key, { autoPong: false });
    // no pongs, but it sends frames: any frame from the peer counts as a sign of life
    const chatty = connect(s.base, FILLS, key, { autoPong: false });
    let pings = 0;
    live.ws.on('ping', () => pings++);
    await Promise.all([live.opened, mute.opened, chatty.opened]);
    const talk = setInterval(() => chatty.ws.send('hi'), 100);
    try {
      const dropped = await mute.closed;
      const after = Date.now() - connectedBefore;
      expect(dropped.code).toBe(1006); // terminated: no closing handshake with a dead peer
      expect(after).toBeGreaterThanOrEqual(400);
      expect(after).toBeLessThan(1_500);
      await new Promise((r) => setTimeout(r, 600));
      expect(pings).toBeGreaterThanOrEqual(5);
      expect(live.ws.readyState).toBe(live.ws.OPEN);
      expect(chatty.ws.readyState).toBe(chatty.ws.OPEN);
      expect(s.server.stream.size).toBe(2);
    } finally {
      clearInterval(talk);
    }
  });
});

describe('client frames', () => {
  test('the stream is read-only: a client frame over 4 KiB closes the socket (1009), small ones are ignored', async () => {
    s = await openStreamServer(NOW);
    const key = s.key('premium');
    const sock = connect(s.base, FILLS, key);
    await sock.opened;
    await expect.poll(() => s!.server.stream.size).toBe(1);
    sock.ws.send('{"subscribe":"everything"}');
    const [seq] = await s.append([fill({ position_key: 'RO' })]);
    await sock.until(() => sock.seqs().includes(seq!));
    sock.ws.send('x'.repeat(10_000));
    expect((await sock.closed).code).toBe(1009);
    await expect.poll(() => s!.server.stream.size).toBe(0);
  });
});

describe('shutdown', () => {
  test('close() sends 1001 to every socket, mid-replay ones included, and waits for them', async () => {
    s = await openStreamServer(NOW, { replayPageSize: 5, onReplayPage: () => new Promise((r) => setTimeout(r, 50)) });
    await s.append(Array.from({ length: 100 }, (_, i) => fill({ position_key: `S${i}` })));
    const key = s.key('premium');
    const socks = [connect(s.base, FILLS, key), connect(s.base, `${FILLS}?market=SOL-PERP`, key), connect(s.base, `${FILLS}?since_seq=0`, key)];
    await Promise.all(socks.map((x) => x.opened));
    await expect.poll(() => s!.server.stream.size).toBe(3);
    await s.close();
    s = undefined;
    for (const sock of socks) expect(await sock.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(socks[2]!.seqs().length).toBeLessThan(100); // it was still replaying
  });
});
