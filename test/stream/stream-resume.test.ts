/**
 * Resume of the fills stream (`since_seq`) through a real server: the replay and the live fills
 * appended while it runs join with no gap and no duplicate; the replay goes back at most 24 h.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { at, fill } from '../helpers/fixtures.ts';
import { connect, openStreamServer, type StreamServer, type TestSocket } from '../helpers/stream.ts';
import type { IncomingFill, Protocol } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T00:00:00Z');
const ADDRS = ['Addr1111111111111111111111111111111111111111', 'Bddr2222222222222222222222222222222222222222'];

interface Appended {
  seq: number;
  protocol: Protocol;
  market: string;
  address: string;
}

let s: StreamServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

let n = 0;
/** the i-th fill of a deterministic mix: alpha SOL / alpha BTC / beta SOL, two addresses */
function mixed(time = at('2026-06-01T06:00:00Z')): IncomingFill {
  const i = n++;
  const kind = i % 3;
  return fill({
    protocol: kind === 2 ? 'beta' : 'alpha',
    market: kind === 1 ? 'BTC-PERP' : 'SOL-PERP',
    market_variant: kind === 2 ? null : kind === 1 ? 'BTC/USD[WBTC-USDC]' : 'SOL/USD[WSOL-USDC]',
    address: ADDRS[(i >> 1) % 2]!,
    position_key: `R${i}`,
    time: time + i,
  });
}

async function appendAll(server: StreamServer, fills: IncomingFill[], log: Appended[]): Promise<number> {
  const r = await server.service.append({ fills, marketSnapshots: [], positionSnapshots: [] });
  for (const f of r.fills) log.push({ seq: f.seq, protocol: f.protocol, market: f.market, address: f.address });
  return r.lastSeq;
}

const expectedSeqs = (log: Appended[], since: number, protocol: Protocol, market?: string, address?: string) =>
  log.filter((f) => f.seq > since && f.protocol === protocol && (!market || f.market === market) && (!address || f.address === address)).map((f) => f.seq);

describe('resume with since_seq', () => {
  test('replay then live across an append burst: every seq of the scope once, in order', async () => {
    // fills land *during* the replays: the hook appends a batch after some replay pages (while
    // the socket is still replaying, so its live fills are buffered), and a burst runs meanwhile
    let hooked = 0;
    let server!: StreamServer;
    const log: Appended[] = [];
    s = await openStreamServer(NOW, {
      replayPageSize: 40,
      onReplayPage: async () => {
        if (hooked++ < 4)
          await appendAll(
            server,
            Array.from({ length: 9 }, () => mixed()),
            log,
          );
      },
    });
    server = s;
    await appendAll(
      server,
      Array.from({ length: 300 }, () => mixed()),
      log,
    );
    const key = server.key('premium');

    const scopes: { sock: TestSocket; since: number; protocol: Protocol; market?: string; address?: string }[] = [];
    const open = (since: number, protocol: Protocol, market?: string, address?: string) => {
      const q = new URLSearchParams({ since_seq: String(since), ...(market ? { market } : {}), ...(address ? { address } : {}) });
      scopes.push({ sock: connect(server.base, `/v1/stream/${protocol}/fills?${q}`, key), since, protocol, market, address });
    };
    const burst = (async () => {
      for (let b = 0; b < 3; b++)
        await appendAll(
          server,
          Array.from({ length: 9 }, () => mixed()),
          log,
        );
    })();
    open(0, 'alpha');
    open(50, 'alpha', 'SOL-PERP');
    open(120, 'beta', undefined, ADDRS[1]);
    open(200, 'alpha', 'BTC-PERP', ADDRS[0]);
    open(server.service.lastSeq(), 'alpha'); // nothing to replay: live from its resume point on
    await burst;
    await expect.poll(() => hooked, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    // a closing fill of every scope: once it arrives, everything before it has
    await appendAll(
      server,
      [
        fill({ protocol: 'alpha', market: 'SOL-PERP', address: ADDRS[0], position_key: 'END1' }),
        fill({ protocol: 'alpha', market: 'BTC-PERP', market_variant: 'BTC/USD[WBTC-USDC]', address: ADDRS[0], position_key: 'END2' }),
        fill({ protocol: 'beta', market: 'SOL-PERP', market_variant: null, address: ADDRS[1], position_key: 'END3' }),
      ],
      log,
    );

    for (const { sock, since, protocol, market, address } of scopes) {
      const want = expectedSeqs(log, since, protocol, market, address);
      expect(want.length).toBeGreaterThan(10);
      await sock.until(() => sock.seqs().at(-1)! >= want.at(-1)!);
      expect(sock.seqs()).toEqual(want); // same seqs, same order: no gap, no duplicate
      expect(sock.frames.some((f) => f.error)).toBe(false);
    }
    for (const { sock } of scopes) sock.ws.close();
  });

  test('a resume goes back at most 24 h of fill time; an older since_seq starts at the horizon', async () => {
    s = await openStreamServer(NOW);
    const log: Appended[] = [];
    const old = Array.from({ length: 5 }, (_, i) => fill({ position_key: `O${i}`, time: at('2026-05-31T12:00:00Z') + i }));
    const edge = fill({ position_key: 'EDGE', time: NOW - 24 * 3_600_000 }); // exactly 24 h back: kept
    const recent = Array.from({ length: 5 }, (_, i) => fill({ position_key: `N${i}`, time: at('2026-06-01T18:00:00Z') + i }));
    await appendAll(s, [...old, edge, ...recent], log);
    const sock = connect(s.base, '/v1/stream/alpha/fills?since_seq=0', s.key('premium'));
    const lastSeq = log.at(-1)!.seq;
    await sock.until(() => sock.seqs().at(-1) === lastSeq);
    expect(sock.seqs()).toEqual(log.slice(5).map((f) => f.seq));
    // and then it is live
    const [next] = await s.append([fill({ position_key: 'LIVE' })]);
    await sock.until(() => sock.seqs().at(-1) === next);
    sock.ws.close();
  });

  test('a client resuming from the last seq it kept continues exactly where it stopped', async () => {
    s = await openStreamServer(NOW);
    const log: Appended[] = [];
    await appendAll(
      s,
      Array.from({ length: 30 }, () => mixed()),
      log,
    );
    const first = connect(s.base, '/v1/stream/alpha/fills?since_seq=0', s.key('premium'));
    await first.until(() => first.seqs().length === expectedSeqs(log, 0, 'alpha').length);
    const cut = first.seqs()[9]!; // a client that kept only the first 10 frames resumes from there
    first.ws.close();
    await appendAll(
      s,
      Array.from({ length: 30 }, () => mixed()),
      log,
    );
    const again = connect(s.base, `/v1/stream/alpha/fills?since_seq=${cut}`, s.key('premium'));
    const want = expectedSeqs(log, cut, 'alpha');
    await again.until(() => again.seqs().length >= want.length);
    expect([...first.seqs().slice(0, 10), ...again.seqs()]).toEqual(expectedSeqs(log, 0, 'alpha'));
    again.ws.close();
  });
});
