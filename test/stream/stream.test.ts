/**
 * The fills stream (`GET /v1/stream/{protocol}/fills`) through a real server on a real port, with the
 * `ws` client: the plain-GET scope echo, 401 before the upgrade, the plan / cap / scope rejection
 * frames, scoping by market (every variant), address and both, and the Fill frame agreeing with REST.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { at, fill } from '../helpers/fixtures.ts';
import { connect, openStreamServer, type StreamServer, type TestSocket } from '../helpers/stream.ts';
import type { IncomingFill } from '../../server/journal/rows.ts';

const NOW = at('2026-06-02T00:00:00Z');
const A = 'Addr1111111111111111111111111111111111111111';
const B = 'Bddr2222222222222222222222222222222222222222';
const SOL = ['SOL/USD[WSOL-USDC]', 'SOL/USD[WSOL]', 'SOL/USD[USDC]'];
const BTC = 'BTC/USD[WBTC-USDC]';
const FILLS = '/v1/stream/alpha/fills';

let n = 0;
/** an opening fill of a fresh lifecycle (own position key), one second after the previous */
const open = (over: Partial<IncomingFill>): IncomingFill => fill({ position_key: `K${++n}`, time: at('2026-06-01T12:00:00Z') + n * 1000, ...over });

let s: StreamServer;

beforeAll(async () => {
  s = await openStreamServer(NOW);
  // every market and variant is known before any socket opens
  await s.append([
    ...SOL.map((v) => open({ market_variant: v, address: A })),
    open({ market: 'BTC-PERP', market_variant: BTC, address: B }),
    open({ protocol: 'beta', market_variant: null, address: A }),
  ]);
});
afterAll(async () => {
  await s?.close();
});

const get = (path: string, key: string | null = s.key('trial')) => fetch(s.base + path, { headers: key === null ? {} : { 'x-api-key': key } });

describe('plain GET echoes the resolved scope', () => {
  test('200 with the variants the scope covers (a key of any plan will do)', async () => {
    const all = await get(FILLS);
    expect(all.status).toBe(200);
    expect(await all.json()).toEqual({ data: { protocol: 'alpha', market: null, address: null, market_variants: [...SOL, BTC].sort() } });
    const sol = await get(`${FILLS}?market=sol-perp&address=${A}`);
    expect(await sol.json()).toEqual({ data: { protocol: 'alpha', market: 'SOL-PERP', address: A, market_variants: [...SOL].sort() } });
    const beta = await get(`/v1/stream/beta/fills?market=SOL-PERP`);
    expect(await beta.json()).toEqual({ data: { protocol: 'beta', market: 'SOL-PERP', address: null, market_variants: [] } });
    // rate-limited like REST, but a scope check costs no credit; the request id and version too
    expect(all.headers.get('ratelimit-limit')).toBe('60');
    expect(all.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(all.headers.get('x-api-version')).toBe('1.0.0-rc.1');
    expect((await get(FILLS)).headers.get('x-credits-remaining')).toBe('10000');
  });

  test('400 names the parameter, 404 for an unknown protocol, 401 without a key, 405 not GET', async () => {
    const cases: [string, number, string, string | undefined][] = [
      [`${FILLS}?market=DOGE-PERP`, 400, 'invalid_parameter', 'market'],
      [`/v1/stream/beta/fills?market=BTC-PERP`, 400, 'invalid_parameter', 'market'], // alpha has it, beta not
      [`${FILLS}?market=SOL`, 400, 'invalid_parameter', 'market'],
      [`${FILLS}?address=0xdeadbeef`, 400, 'invalid_parameter', 'address'],
      [`${FILLS}?since_seq=-1`, 400, 'invalid_parameter', 'since_seq'],
      [`${FILLS}?since_seq=999`, 400, 'invalid_parameter', 'since_seq'], // past the journal's last seq
      [`${FILLS}?limit=5`, 400, 'unknown_parameter', 'limit'],
      ['/v1/stream/gamma/fills', 404, 'not_found', undefined],
    ];
    for (const [path, status, code, param] of cases) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, status]);
      const body = (await res.json()) as { error: { code: string; param?: string } };
      expect([path, body.error.code, body.error.param]).toEqual([path, code, param]);
    }
    expect((await get(FILLS, null)).status).toBe(401);
    expect((await get(FILLS, 'pa_nothere1_0123456789abcdef0123456789abcdef')).status).toBe(401);
    expect((await fetch(s.base + FILLS, { method: 'POST', headers: { 'x-api-key': s.key('trial') } })).status).toBe(405);
  });
});

describe('upgrade', () => {
  test('HTTP 401 before any upgrade without a valid key', async () => {
    await expect(connect(s.base, FILLS, null).opened).rejects.toThrow('status 401');
    await expect(connect(s.base, FILLS, 'pa_nothere1_0123456789abcdef0123456789abcdef').opened).rejects.toThrow('status 401');
    const revoked = s.keys.create({ plan: 'premium' });
    s.keys.revoke(revoked.record.id);
    await expect(connect(s.base, FILLS, revoked.key).opened).rejects.toThrow('status 401');
  });

  test('a plan without stream access gets plan_required then 1008', async () => {
    for (const plan of ['trial', 'starter', 'pro'] as const) {
      const sock = connect(s.base, FILLS, s.key(plan));
      await sock.opened;
      expect(await sock.closed).toEqual({ code: 1008, reason: 'plan_required' });
      expect(sock.frames).toHaveLength(1);
      expect(sock.frames[0]!.error?.code).toBe('plan_required');
    }
  });

  test('a bad scope is an invalid_scope frame then 1008, naming the parameter', async () => {
    const cases: [string, string | undefined][] = [
      [`${FILLS}?market=DOGE-PERP`, 'market'],
      [`${FILLS}?address=nope`, 'address'],
      [`${FILLS}?since_seq=x`, 'since_seq'],
      [`${FILLS}?api_key=1`, 'api_key'],
      ['/v1/stream/gamma/fills', undefined],
    ];
    for (const [path, param] of cases) {
      const sock = connect(s.base, path, s.key('premium'));
      await sock.opened;
      expect(await sock.closed).toEqual({ code: 1008, reason: 'invalid_scope' });
      expect(sock.frames).toEqual([{ error: { code: 'invalid_scope', message: expect.any(String), ...(param ? { param } : {}) } }]);
    }
  });

  test('the 51st connection of an account, across its keys, gets too_many_connections then 1013', async () => {
    const one = s.keys.create({ plan: 'premium', account: 'acme' }).key;
    const two = s.keys.create({ plan: 'premium', account: 'acme' }).key;
    const socks: TestSocket[] = [];
    for (let i = 0; i < 50; i++) socks.push(connect(s.base, FILLS, i % 2 ? one : two));
    await Promise.all(socks.map((x) => x.opened));
    await expect.poll(() => s.server.stream.connectionsOf('acme')).toBe(50);
    const extra = connect(s.base, FILLS, one);
    expect(await extra.closed).toEqual({ code: 1013, reason: 'too_many_connections' });
    expect(extra.frames[0]!.error?.code).toBe('too_many_connections');
    // another account is not affected, and a freed slot can be taken again
    const other = connect(s.base, FILLS, s.key('premium', 'other'));
    await other.opened;
    socks[0]!.ws.close();
    await socks[0]!.closed;
    await expect.poll(() => s.server.stream.connectionsOf('acme')).toBe(49);
    const again = connect(s.base, FILLS, two);
    await again.opened;
    await expect.poll(() => s.server.stream.connectionsOf('acme')).toBe(50);
    for (const x of [...socks, other, again]) x.ws.close();
    await Promise.all([...socks, other, again].map((x) => x.closed));
    await expect.poll(() => s.server.stream.size).toBe(0);
  });
});

describe('scoping and frames', () => {
  test('market (all its variants), address, both; one frame per fill in journal order', async () => {
    const key = s.key('premium');
    const socks = {
      all: connect(s.base, FILLS, key),
      sol: connect(s.base, `${FILLS}?market=sol-perp`, key),
      a: connect(s.base, `${FILLS}?address=${A}`, key),
      solA: connect(s.base, `${FILLS}?address=${A}&market=SOL-PERP`, key),
      btcA: connect(s.base, `${FILLS}?address=${A}&market=BTC-PERP`, key),
      beta: connect(s.base, '/v1/stream/beta/fills', key),
    };
    await Promise.all(Object.values(socks).map((x) => x.opened));
    await expect.poll(() => s.server.stream.size).toBe(6);
    const seqs = await s.append([
      open({ market_variant: SOL[0], address: A }), // 0
      open({ market_variant: SOL[1], address: B }), // 1
      open({ market_variant: SOL[2], address: A }), // 2
      open({ market: 'BTC-PERP', market_variant: BTC, address: A }), // 3
      open({ market: 'BTC-PERP', market_variant: BTC, address: B }), // 4
      open({ protocol: 'beta', market_variant: null, address: A }), // 5
    ]);
    // a second append proves order across commits and marks the end of what each socket gets
    const [end, betaEnd] = (await s.append([open({ market: 'BTC-PERP', market_variant: BTC, address: A }), open({ protocol: 'beta', market_variant: null, address: B })])) as [number, number];
    const pick = (...i: number[]) => i.map((k) => seqs[k]!);
    const expected = {
      all: [...pick(0, 1, 2, 3, 4), end],
      sol: pick(0, 1, 2),
      a: [...pick(0, 2, 3), end],
      solA: pick(0, 2),
      btcA: [...pick(3), end],
      beta: [...pick(5), betaEnd],
    };
    for (const x of [socks.all, socks.a, socks.btcA]) await x.until(() => x.seqs().includes(end));
    await socks.beta.until(() => socks.beta.seqs().includes(betaEnd));
    for (const [name, sock] of Object.entries(socks)) {
      expect([name, sock.seqs()]).toEqual([name, expected[name as keyof typeof expected]]);
      expect(sock.frames.every((f) => f.data && !f.error)).toBe(true);
    }
    const first = socks.sol.frames[1]!.data!;
    expect(first).toMatchObject({ seq: seqs[1], protocol: 'alpha', market: 'SOL-PERP', market_variant: SOL[1], address: B, side: 'long', type: 'open' });
    expect(Object.keys(first)).toEqual([
      'seq',
      'protocol',
      'position_id',
      'address',
      'market',
      'market_variant',
      'side',
      'time',
      'type',
      'size_delta_usd',
      'position_size_usd',
      'collateral_delta_usd',
      'price',
      'entry_price',
      'pnl_delta_usd',
      'fee_usd',
      'borrowing_fee_usd',
      'funding_fee_usd',
      'liquidation_fee_usd',
      'fee_total_usd',
      'tx',
    ]);
    for (const x of Object.values(socks)) x.ws.close();
    await Promise.all(Object.values(socks).map((x) => x.closed));
  });

  test('a data frame carries the same PositionEvent values as the REST lifecycle, byte for byte', async () => {
    const sock = connect(s.base, `${FILLS}?address=${B}&market=ETH-PERP`, s.key('premium'));
    // ETH-PERP is not known yet: the scope is invalid until a fill of it exists
    expect((await sock.closed).reason).toBe('invalid_scope');
    const eth = { market: 'ETH-PERP', market_variant: 'ETH/USD[WETH-USDC]', address: B, position_key: 'ETHPOS' };
    await s.append([open({ ...eth, size_delta_usd: 1000.123457, position_size_usd: 1000.123457, fee_usd: 0.7000015, fee_total_usd: 0.7000015, price: 3012.3456789 })]);
    const live = connect(s.base, `${FILLS}?address=${B}&market=ETH-PERP`, s.key('premium'));
    await live.opened;
    await expect.poll(() => s.server.stream.size).toBe(1);
    const t = at('2026-06-01T20:00:00Z');
    await s.append([
      fill({
        ...eth,
        time: t,
        type: 'increase',
        size_delta_usd: 333.3333333,
        position_size_usd: 1333.45679,
        collateral_delta_usd: 0,
        price: 3100.1 / 3,
        entry_price: 2999.99999999,
        fee_usd: 0.1234565,
        borrowing_fee_usd: 0.0000005,
        funding_fee_usd: 1 / 7,
        fee_total_usd: 0.2663137,
      }),
      fill({ ...eth, time: t + 1, type: 'decrease', size_delta_usd: 0, position_size_usd: 1333.45679, collateral_delta_usd: -10.5, price: 3000, entry_price: 3000, fee_usd: 0, fee_total_usd: 0 }),
      fill({
        ...eth,
        time: t + 2,
        type: 'close',
        size_delta_usd: -1333.45679,
        position_size_usd: 0,
        collateral_delta_usd: -89.5,
        price: 2950.5,
        entry_price: 3000,
        pnl_delta_usd: -21.9876545,
        fee_usd: 0.9,
        liquidation_fee_usd: null,
        fee_total_usd: 0.9,
      }),
    ]);
    await live.until(() => live.seqs().length === 3);
    const positionId = live.frames[0]!.data!.position_id as number;
    const res = await fetch(`${s.base}/v1/alpha/positions/${B}/${positionId}/lifecycle?include_collateral_events=true`, { headers: { 'x-api-key': s.key('premium') } });
    const rest = ((await res.json()) as { data: Record<string, unknown>[] }).data;
    expect(rest).toHaveLength(4); // the opening fill came before the socket
    for (const [i, frame] of live.frames.entries()) {
      const row = rest[i + 1]!;
      const picked = Object.fromEntries(Object.keys(row).map((k) => [k, frame.data![k]]));
      expect(JSON.stringify(picked)).toBe(JSON.stringify(row));
    }
    expect(live.frames[0]!.data!.fee_usd).toBe(0.123457); // rounded to 6 decimals like REST
    live.ws.close();
    await live.closed;
  });
});
