import { afterEach, describe, expect, it } from 'vitest';
import { at, fill, tempDataDir, tempService } from '../helpers/fixtures.ts';
import { openService, type Service } from '../../server/service.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function open(): Promise<Service> {
  const t = await tempService();
  cleanup = t.cleanup;
  return t.service;
}

/** The known-answer lifecycle: open 1,000 @100 → increase 500 @110 → decrease 600 @120 → close 900 @90. */
function lifecycleFills() {
  return [
    fill({
      time: at('2026-06-01T00:00:00Z'),
      type: 'open',
      size_delta_usd: 1000,
      position_size_usd: 1000,
      collateral_delta_usd: 100,
      position_collateral_usd: 100,
      price: 100,
      entry_price: 100,
      fee_usd: 0.7,
      fee_total_usd: 0.7,
    }),
    fill({
      time: at('2026-06-01T01:00:00Z'),
      type: 'increase',
      size_delta_usd: 500,
      position_size_usd: 1500,
      collateral_delta_usd: 50,
      position_collateral_usd: 150,
      price: 110,
      entry_price: 103.333333,
      fee_usd: 0.35,
      borrowing_fee_usd: 0.2,
      funding_fee_usd: 0.1,
      fee_total_usd: 0.65,
    }),
    fill({
      time: at('2026-06-01T02:00:00Z'),
      type: 'decrease',
      size_delta_usd: -600,
      position_size_usd: 900,
      collateral_delta_usd: -60,
      position_collateral_usd: 90,
      price: 120,
      entry_price: 103.333333,
      pnl_delta_usd: 96.774194,
      fee_usd: 0.42,
      funding_earned_usd: 0.05,
      fee_total_usd: 0.42,
    }),
    fill({
      time: at('2026-06-01T05:00:00Z'),
      type: 'close',
      size_delta_usd: -900,
      position_size_usd: 0,
      collateral_delta_usd: -90,
      position_collateral_usd: 0,
      price: 90,
      entry_price: 103.333333,
      pnl_delta_usd: -116.129032,
      fee_usd: 0.63,
      borrowing_fee_usd: 0.3,
      fee_total_usd: 0.93,
    }),
  ];
}

describe('lifecycle derivation (contract §6)', () => {
  it('computes entry/exit price, PnL and fees of open → increase → partial decrease → close', async () => {
    const s = await open();
    const res = await s.append({ fills: lifecycleFills(), marketSnapshots: [], positionSnapshots: [] });
    expect(res.fills.map((f) => f.seq)).toEqual([1, 2, 3, 4]);
    expect(new Set(res.fills.map((f) => f.position_id))).toEqual(new Set([1]));
    const [l] = await s.db.querySql('SELECT * FROM lifecycles WHERE position_id = $id', { id: 1 });
    expect(l).toMatchObject({
      status: 'closed',
      opened_at: '2026-06-01T00:00:00.000Z',
      closed_at: '2026-06-01T05:00:00.000Z',
      fill_count: 4,
      max_size_usd: 1500,
      max_collateral_usd: 150,
      volume_usd: 3000,
      fees_usd: 2.1,
      borrowing_fees_usd: 0.5,
      funding_fees_usd: 0.1,
      funding_earned_usd: 0.05,
      liquidation_fees_usd: 0,
    });
    // entry = (1000×100 + 500×110) / 1500; exit = (600×120 + 900×90) / 1500
    expect(l!.entry_price).toBeCloseTo(155000 / 1500, 9);
    expect(l!.exit_price).toBeCloseTo(153000 / 1500, 9);
    expect(l!.realized_pnl_usd).toBeCloseTo(96.774194 - 116.129032, 6);
    // net = realized − trading − borrowing − funding − liquidation + earned
    expect(l!.net_pnl_usd).toBeCloseTo(96.774194 - 116.129032 - 2.1 - 0.5 - 0.1 + 0.05, 6);
    expect(l!.max_leverage).toBeCloseTo(10, 9);
  });

  it('an average over fills at one price is that price exactly, whatever the sizes', async () => {
    // A lifecycle from the bench journal: the DECIMAL(38,18) quotient this step used before gave
    // an entry of 1914.8216694654448, Σ notional / Σ size in doubles 1914.8216694654452.
    const p = 1914.821669465445;
    const q = 1709.050727826517;
    const s = await open();
    await s.append({
      fills: [
        fill({
          time: at('2026-06-01T00:00:00Z'),
          type: 'open',
          size_delta_usd: 344242.440442,
          position_size_usd: 344242.440442,
          collateral_delta_usd: 40000,
          position_collateral_usd: 40000,
          price: p,
          entry_price: p,
        }),
        fill({
          time: at('2026-06-01T01:00:00Z'),
          type: 'increase',
          size_delta_usd: 488471.838702,
          position_size_usd: 832714.279144,
          collateral_delta_usd: 50000,
          position_collateral_usd: 90000,
          price: p,
          entry_price: p,
        }),
        fill({
          time: at('2026-06-01T02:00:00Z'),
          type: 'decrease',
          size_delta_usd: -72092.515695,
          position_size_usd: 760621.763449,
          collateral_delta_usd: -8000,
          position_collateral_usd: 82000,
          price: q,
          entry_price: p,
        }),
        fill({
          time: at('2026-06-01T03:00:00Z'),
          type: 'close',
          size_delta_usd: -760621.763449,
          position_size_usd: 0,
          collateral_delta_usd: -82000,
          position_collateral_usd: 0,
          price: q,
          entry_price: p,
        }),
      ],
      marketSnapshots: [],
      positionSnapshots: [],
    });
    const [l] = await s.db.querySql('SELECT entry_price, exit_price FROM lifecycles');
    expect(l).toEqual({ entry_price: p, exit_price: q });
  });

  it('keeps an open lifecycle open with no exit price, and reuses the position key for a new id', async () => {
    const s = await open();
    const [o, i, d, c] = lifecycleFills();
    await s.append({ fills: [o!, i!, d!], marketSnapshots: [], positionSnapshots: [] });
    let [l] = await s.db.querySql('SELECT * FROM lifecycles WHERE position_id = $id', { id: 1 });
    expect(l).toMatchObject({ status: 'open', closed_at: null, exit_price: null, close_tx: null, size_usd: 900 });
    await s.append({ fills: [c!], marketSnapshots: [], positionSnapshots: [] });
    const again = await s.append({
      fills: [
        fill({ time: at('2026-06-01T06:00:00Z') }),
        fill({
          time: at('2026-06-01T07:00:00Z'),
          type: 'liquidation',
          size_delta_usd: -1000,
          position_size_usd: 0,
          collateral_delta_usd: -100,
          position_collateral_usd: 0,
          price: 91,
          pnl_delta_usd: -90,
          fee_usd: 0.7,
          liquidation_fee_usd: 2,
          fee_total_usd: 2.7,
        }),
      ],
      marketSnapshots: [],
      positionSnapshots: [],
    });
    expect(again.fills.map((f) => f.position_id)).toEqual([2, 2]);
    [l] = await s.db.querySql('SELECT * FROM lifecycles WHERE position_id = $id', { id: 2 });
    expect(l).toMatchObject({ status: 'liquidated', volume_usd: 1000, liquidation_fees_usd: 2, net_pnl_usd: -90 - (0.5 + 0.7) - 2 });
  });

  it('drops duplicates within a batch and across batches, keeping seq gap-free', async () => {
    const s = await open();
    const fills = lifecycleFills();
    const first = await s.append({ fills: [fills[0]!, fills[0]!, fills[1]!], marketSnapshots: [], positionSnapshots: [] });
    expect(first.duplicates).toBe(1);
    const second = await s.append({ fills, marketSnapshots: [], positionSnapshots: [] });
    expect(second.duplicates).toBe(2);
    expect(second.fills.map((f) => [f.seq, f.type])).toEqual([
      [3, 'decrease'],
      [4, 'close'],
    ]);
    const [n] = await s.db.querySql('SELECT count(*) AS n FROM fills');
    expect(n!.n).toBe(4);
  });

  it('rebuilds a derived state made by other derive SQL from the journal at open', async () => {
    const { dir, cleanup } = tempDataDir();
    let s = await openService({ dataDir: dir });
    await s.append({ fills: lifecycleFills(), marketSnapshots: [], positionSnapshots: [] });
    const before = await s.db.querySql('SELECT * FROM lifecycles');
    // pretend an older version built this state, and that it lacks rows the new SQL derives
    await s.db.write(async (w) => {
      await w.exec("UPDATE meta SET value = 'older' WHERE key = 'derive_version'");
      await w.exec('DELETE FROM lifecycles');
    });
    await s.close();
    s = await openService({ dataDir: dir });
    try {
      expect(await s.db.querySql('SELECT * FROM lifecycles')).toEqual(before);
      expect((await s.db.querySql("SELECT value FROM meta WHERE key = 'derive_version'"))[0]!.value).not.toBe('older');
    } finally {
      await s.close();
      cleanup();
    }
  });
});
