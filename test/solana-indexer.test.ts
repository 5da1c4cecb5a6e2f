/**
 * End to end: a day of the simulator's fills, encoded as real event-CPI inner instructions of
 * both programs, served by a mock JSON-RPC server that also throws 429s, 500s and "not found
 * yet" at the client. The solana source ingests them into an empty data directory, is stopped
 * part-way through its backfill, restarted from its checkpoint on a reopened service, then
 * follows the chain as the second half of the day lands. The journal must hold exactly the
 * simulator's fills (same rows, none lost or doubled) and the same lifecycles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshRollups } from '../jobs/rollup-refresh.ts';
import type { IncomingFill } from '../server/journal/rows.ts';
import { openService, type Service } from '../server/service.ts';
import { startSolanaSource, type SolanaSourceOptions } from '../server/sources/solana/indexer.ts';
import { ALPHA_PROGRAM, BETA_PROGRAM, TOKEN_DECIMALS } from '../server/sources/solana/layout.ts';
import { Simulator } from '../server/sources/simulate/simulator.ts';
import { tempDataDir } from './helpers/fixtures.ts';
import { diffWithRebuild } from './helpers/rebuild-diff.ts';
import { b58 } from './helpers/solana-bytes.ts';
import { ENCODED_MARKETS, FillEncoder, labelKey, marketAccount } from './helpers/solana-encode.ts';
import { MockChain, startMockRpc, type MockRpc } from './helpers/solana-mock-rpc.ts';

const START = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('solana source end to end (mock RPC)', () => {
  let expected: IncomingFill[];
  let chain: MockChain;
  let rpc: MockRpc;
  let encoder: FillEncoder;
  const data = tempDataDir();
  let reference: Service;
  const refDir = tempDataDir();

  beforeAll(async () => {
    const sim = new Simulator({ seed: 11, start: START, snapshotsFrom: Date.UTC(2100, 0, 1) });
    expected = sim.advance(START + DAY).flatMap((b) => b.fills);
    chain = new MockChain();
    chain.accounts.set(ALPHA_PROGRAM, ENCODED_MARKETS.map((m) => ({ pubkey: b58(labelKey(`account:${m.name}`)), data: marketAccount(m) })));
    encoder = new FillEncoder();
    rpc = await startMockRpc(chain, { rateLimitEvery: 97, serverErrorEvery: 131, notFoundEvery: 89 });
    // the reference: the simulator's own fills through the same append path
    reference = await openService({ dataDir: refDir.dir });
    await reference.append({ fills: expected.map((f) => ({ ...f })), marketSnapshots: [], positionSnapshots: [] });
  });

  afterAll(async () => {
    await rpc?.close();
    await reference?.close();
    data.cleanup();
    refDir.cleanup();
  });

  /** Puts fills on the mock chain; a failed transaction of each program goes along as noise. */
  function land(fills: IncomingFill[]): void {
    for (const f of fills) chain.add(f.protocol === 'alpha' ? ALPHA_PROGRAM : BETA_PROGRAM, encoder.encode(f));
    const last = fills[fills.length - 1]!;
    for (const [program, f] of [[ALPHA_PROGRAM, fills.find((x) => x.protocol === 'alpha')!], [BETA_PROGRAM, fills.find((x) => x.protocol === 'beta')!]] as const) {
      const failed = encoder.encode({ ...f, tx: `${f.tx.slice(0, 40)}Failed`, slot: last.slot });
      chain.add(program, failed, { InstructionError: [0, { Custom: 6000 }] });
    }
  }

  const options = (): SolanaSourceOptions => ({ url: rpc.url, from: { slot: expected[0]!.slot }, pollMs: 30, batchTxs: 250, backoffMs: 1, concurrency: 4 });

  it('ingests, survives a stop half-way through the backfill, follows new slots, and matches the simulator', async () => {
    expect(expected.length).toBeGreaterThan(1500);
    const half = Math.floor(expected.length / 2);
    land(expected.slice(0, half));

    // run 1: stopped from inside an append once a fifth of the fills are in
    let service = await openService({ dataDir: data.dir });
    let feed = startSolanaSource(service, options());
    const stopAt = Math.floor(expected.length / 5);
    let stopping: Promise<void> | undefined;
    service.onAppend(() => {
      if (!stopping && service.lastSeq() >= stopAt) stopping = feed.stop();
    });
    const t0 = Date.now();
    await waitFor('the first stop', () => stopping !== undefined);
    await stopping;
    const firstRun = service.lastSeq();
    expect(firstRun).toBeGreaterThanOrEqual(stopAt);
    expect(firstRun).toBeLessThan(half); // really half-way through the backfill
    await service.close();

    // run 2: a new process on the same data directory resumes from the checkpoint
    service = await openService({ dataDir: data.dir });
    feed = startSolanaSource(service, options());
    await feed.backfilled;
    expect(service.lastSeq()).toBe(half);
    land(expected.slice(half)); // the rest of the day lands while it follows
    await waitFor('the followed fills', () => service.lastSeq() >= expected.length);
    const seconds = (Date.now() - t0) / 1000;
    await sleep(200); // a few more polls: nothing else may arrive
    await feed.stop();

    const rows = await service.db.querySql('SELECT * FROM fills ORDER BY seq');
    expect(rows.length).toBe(expected.length);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(expected.length);
    const byTx = new Map(rows.map((r) => [r.tx as string, r]));
    const problems: string[] = [];
    const exact = ['protocol', 'slot', 'event_index', 'position_key', 'address', 'market', 'market_variant', 'side', 'type',
      'size_delta_usd', 'position_size_usd', 'collateral_delta_usd', 'position_collateral_usd', 'pnl_delta_usd', 'fee_usd',
      'borrowing_fee_usd', 'funding_fee_usd', 'liquidation_fee_usd', 'funding_earned_usd', 'fee_total_usd', 'collateral_token'] as const;
    for (const f of expected) {
      const r = byTx.get(f.tx);
      if (!r) { problems.push(`missing ${f.tx}`); continue; }
      for (const k of exact) if (r[k] !== f[k]) problems.push(`${f.tx} ${f.type} ${k}: ${String(r[k])} vs ${String(f[k])}`);
      if (Date.parse(`${String(r.time)}Z`.replace('ZZ', 'Z')) !== f.time) problems.push(`${f.tx} time ${String(r.time)} vs ${f.time}`);
      // prices pass through integers: alpha unit prices × 1e20 (relative 1e-9), beta 6 decimals
      const priceTol = (p: number) => (f.protocol === 'alpha' ? p * 1e-9 : 6e-7);
      for (const k of ['price', 'index_price'] as const) {
        if (Math.abs((r[k] as number) - f[k]) > priceTol(f[k])) problems.push(`${f.tx} ${k}: ${String(r[k])} vs ${f[k]}`);
      }
      // alpha entry = size in USD / size in tokens (an integer of the index token's units)
      const size = f.position_size_usd || f.position_size_usd - f.size_delta_usd;
      const units = f.protocol === 'alpha' ? Math.round((size / f.entry_price) * 10 ** TOKEN_DECIMALS[f.market.replace('-PERP', '')]!) : 0;
      const entryTol = f.protocol === 'alpha' ? f.entry_price * (1 / units + 1e-9) : 6e-7;
      if (Math.abs((r.entry_price as number) - f.entry_price) > entryTol) problems.push(`${f.tx} entry_price: ${String(r.entry_price)} vs ${f.entry_price}`);
    }
    expect(problems.slice(0, 10), `${problems.length} problems`).toEqual([]);

    // the same lifecycles (position ids differ only by the order of protocols within a slot)
    const lifecycles = async (s: Service) =>
      (await s.db.querySql('SELECT * EXCLUDE (position_id, first_seq, last_seq, entry_price, exit_price, max_leverage) FROM lifecycles ORDER BY protocol, position_key, opened_at'));
    const [mine, theirs] = [await lifecycles(service), await lifecycles(reference)];
    expect(mine.length).toBe(theirs.length);
    expect(mine).toEqual(theirs);
    const types = new Set(rows.map((r) => `${String(r.protocol)}:${String(r.type)}`));
    for (const t of ['alpha:open', 'alpha:close', 'alpha:liquidation', 'alpha:decrease', 'beta:open', 'beta:close', 'beta:liquidation', 'beta:increase']) expect(types).toContain(t);
    // cost figures for the indexer's runbook: requests per fill
    console.log(`solana e2e: ${expected.length} fills in ${seconds.toFixed(1)} s (stop, restart, follow), RPC calls ${JSON.stringify(rpc.calls)}`);
    // a backfill stopped and resumed on a non-empty state marks nothing: the first refresh is a full pass
    const [buckets] = await service.db.querySql('SELECT count(*)::INTEGER AS n FROM rollup_5m');
    expect((await refreshRollups(service)).fillBuckets).toBe(buckets!.n);
    await service.close();
  }, 120_000);

  it('marks the rollups refreshed after a backfill into an empty data directory that reaches the tip', async () => {
    const fresh = tempDataDir();
    const service = await openService({ dataDir: fresh.dir });
    try {
      const feed = startSolanaSource(service, { ...options(), pollMs: 0 }); // the backfill alone
      await feed.backfilled;
      await feed.stop();
      expect(service.lastSeq()).toBe(expected.length);
      expect(await refreshRollups(service)).toEqual({ fillBuckets: 0, snapshotBuckets: 0, seq: expected.length, commit: expect.any(Number) });
      expect(await diffWithRebuild(service)).toEqual({});
    } finally {
      await service.close();
      fresh.cleanup();
    }
  }, 60_000);
});
