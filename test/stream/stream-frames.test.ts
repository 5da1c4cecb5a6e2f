/**
 * Live data frames are built in JS from the appended fills (server/stream/fill-json.ts), replayed
 * ones by SQL from the derived state: they must be the same bytes. Checked on the arithmetic
 * (against DuckDB itself, on 200k doubles with many exact half-micro-dollar ties) and end to end
 * (a live socket and a resuming one receive identical text for every fill).
 */
import { afterAll, describe, expect, test } from 'vitest';
import { Database } from '../../server/db/database.ts';
import { fillTime, usd6 } from '../../server/stream/fill-json.ts';
import { at, fill } from '../helpers/fixtures.ts';
import { connect, openStreamServer } from '../helpers/stream.ts';

/** a deterministic LCG in [0, 1) */
function rng(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('JS arithmetic = DuckDB casts', () => {
  let db: Database | undefined;
  afterAll(async () => db?.close());

  test('usd6 and fillTime agree with DECIMAL(18,6) and TIMESTAMP round trips', async () => {
    db = await Database.open(':memory:', { readers: 1 });
    const r = rng(12345);
    const xs: number[] = [0.0000005, -0.0000005, 0.0000015, 0.0000025, 2.5e-7, 1e11, -1e11, 123456789012.345678, 0, -1e-9];
    for (let i = 0; i < 50_000; i++) {
      const k = Math.floor(r() * 1e12) - 5e11;
      xs.push((k + 0.5) / 1e6, k / 1e6 + r() * 1e-6, (r() - 0.5) * 10 ** Math.floor(r() * 12), Math.floor(r() * 1e7) / 1e7);
    }
    const times = Array.from({ length: 20_000 }, (_, i) => at('2026-06-01T00:00:00Z') + Math.floor(r() * 1e9) + [0, 0.5, 0.4995, 0.9999, r()][i % 5]!);
    const conn = await db.connect();
    try {
      await conn.run('CREATE TABLE xs (i INTEGER, x DOUBLE); CREATE TABLE ts (i INTEGER, t DOUBLE)');
      const ax = await conn.createAppender('xs');
      xs.forEach((x, i) => {
        ax.appendInteger(i);
        ax.appendDouble(x);
        ax.endRow();
      });
      ax.closeSync();
      const at_ = await conn.createAppender('ts');
      times.forEach((t, i) => {
        at_.appendInteger(i);
        at_.appendDouble(t);
        at_.endRow();
      });
      at_.closeSync();
    } finally {
      conn.closeSync();
    }
    // the casts of server/journal/stage.ts, read back as sql/stream/fills.sql and values.ts do
    const money = await db.querySql('SELECT i, round(x::DECIMAL(18,6), 6)::DOUBLE AS d FROM xs ORDER BY i');
    const bad = money.filter((row) => JSON.stringify(usd6(xs[row.i as number]!)) !== JSON.stringify(row.d));
    expect(bad.slice(0, 5)).toEqual([]);
    const stamps = await db.querySql('SELECT i, make_timestamp((t * 1000)::BIGINT) AS t FROM ts ORDER BY i');
    const badT = stamps.filter((row) => fillTime(times[row.i as number]!) !== row.t);
    expect(badT.slice(0, 5)).toEqual([]);
    expect(money).toHaveLength(xs.length);
  });
});

describe('live = replay, byte for byte', () => {
  test('a live socket and a resuming one receive the same text for every fill', async () => {
    const s = await openStreamServer(at('2026-06-02T00:00:00Z'));
    try {
      await s.append([fill({ position_key: 'SEED' }), fill({ protocol: 'beta', market_variant: null, position_key: 'SEEDB' })]);
      const key = s.key('premium');
      const live = connect(s.base, '/v1/stream/alpha/fills', key);
      await live.opened;
      await expect.poll(() => s.server.stream.size).toBe(1);
      const r = rng(7);
      const odd = Array.from({ length: 60 }, (_, i) =>
        fill({
          position_key: `ODD${i}`,
          time: at('2026-06-01T10:00:00Z') + i * 1000 + [0, 0.5, 0.9996, 0.0004][i % 4]!,
          size_delta_usd: (Math.floor(r() * 1e9) + 0.5) / 1e6,
          position_size_usd: r() * 1e6,
          collateral_delta_usd: -(Math.floor(r() * 1e8) + 0.5) / 1e6,
          price: r() * 1e5,
          entry_price: 1 / 3,
          pnl_delta_usd: (r() - 0.5) * 1e4,
          fee_usd: (Math.floor(r() * 1e6) + 0.5) / 1e6,
          borrowing_fee_usd: i % 2 ? null : r() / 1e3,
          funding_fee_usd: i % 3 ? -0.0000004 : null,
          liquidation_fee_usd: i % 5 ? null : 1e-7,
          fee_total_usd: r() * 10,
          side: i % 2 ? 'long' : 'short',
          market_variant: i % 7 ? 'SOL/USD[WSOL-USDC]' : null,
        }),
      );
      const seqs = await s.append(odd);
      await live.until(() => live.seqs().at(-1) === seqs.at(-1));
      const replay = connect(s.base, '/v1/stream/alpha/fills?since_seq=1', key);
      await replay.until(() => replay.seqs().at(-1) === seqs.at(-1));
      expect(replay.seqs()).toEqual(seqs);
      expect(live.raw).toEqual(replay.raw);
      live.ws.close();
      replay.ws.close();
    } finally {
      await s.close();
    }
  });
});
