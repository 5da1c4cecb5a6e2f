/**
 * End to end: a day of the simulator's fills, encoded as real event-CPI inner instructions of
 * both programs (alpha's from alpha-events.md, beta's in the published IDL's field order), with
 * the Market, mint and token-map accounts they need, served by a mock JSON-RPC server that also
 * throws 429s, 500s and "not found yet" at the client. Among them, a beta fill too large for the
 * journal. The solana source ingests them into an empty data directory, is stopped part-way
 * through its backfill, restarted from its checkpoint on a reopened service, then follows the
 * chain as the second half of the day lands. The journal must hold exactly the simulator's fills
 * (same rows, none lost or doubled) and the same lifecycles; the bad fill is quarantined, and
 * the fills after it arrive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshRollups } from '../../../jobs/rollup-refresh.ts';
import type { IncomingFill } from '../../../server/journal/rows.ts';
import { openService, type Service } from '../../../server/service.ts';
import { startSolanaSource, type SolanaSourceOptions } from '../../../server/sources/solana/indexer.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ALPHA_PROGRAM, BETA_PROGRAM } from '../../../server/sources/solana/layout.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { tempDataDir } from '../../helpers/fixtures.ts';
import { diffWithRebuild } from '../../helpers/rebuild-diff.ts';
import { chainAccounts, FillEncoder } from '../../helpers/solana-encode.ts';
import { MockChain, startMockRpc, type Faults, type MockRpc } from '../../helpers/solana-mock-rpc.ts';

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

/** Each fill's entry price by the contract: Σ increase size × price / Σ increase size within its lifecycle. */
function entriesByContract(fills: IncomingFill[]): Map<string, number> {
  const open = new Map<string, { up: number; notional: number }>();
  const out = new Map<string, number>();
  for (const f of fills) {
    const id = `${f.protocol}:${f.position_key}`;
    const s = f.type === 'open' ? { up: 0, notional: 0 } : (open.get(id) ?? { up: 0, notional: 0 });
    if (f.size_delta_usd > 0) {
      s.up += f.size_delta_usd;
      s.notional += f.size_delta_usd * (f.protocol === 'beta' ? Math.round(f.price * 1e6) / 1e6 : f.price); // beta prices carry 6 decimals on chain
    }
    out.set(f.tx, s.notional / s.up);
    if (f.position_size_usd === 0) open.delete(id);
    else open.set(id, s);
  }
  return out;
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
    for (const [owner, accounts] of chainAccounts()) chain.accounts.set(owner, accounts);
    encoder = new FillEncoder();
    faults = { rateLimitEvery: 97, serverErrorEvery: 131, notFoundEvery: 89 };
    rpc = await startMockRpc(chain, faults);
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

  /** Puts fills on the mock chain; a failed transaction of each program goes along as noise, and `bad` the invalid fill. */
  function land(fills: IncomingFill[], bad?: number): void {
    fills.forEach((f, i) => {
      if (i === bad) {
        const b = fills.find((x, j) => j >= i && x.protocol === 'beta')!;
        chain.add(BETA_PROGRAM, encoder.invalidBetaOpen({ ...b, tx: `${f.tx.slice(0, 40)}Invalid`, slot: f.slot, position_key: 'BadPosition11111111111111111111111111111111' }));
      }
      chain.add(f.protocol === 'alpha' ? ALPHA_PROGRAM : BETA_PROGRAM, encoder.encode(f));
    });
    const last = fills[fills.length - 1]!;
    for (const [program, f] of [
      [ALPHA_PROGRAM, fills.find((x) => x.protocol === 'alpha')!],
      [BETA_PROGRAM, fills.find((x) => x.protocol === 'beta')!],
    ] as const) {
      const failed = encoder.encode({ ...f, tx: `${f.tx.slice(0, 40)}Failed`, slot: last.slot });
      chain.add(program, failed, { InstructionError: [0, { Custom: 6000 }] });
    }
  }

  let faults: Faults;
  const options = (): SolanaSourceOptions => ({ url: rpc.url, from: { slot: expected[0]!.slot }, pollMs: 30, batchTxs: 250, backoffMs: 1, concurrency: 4 });

  it('ingests, survives a stop half-way through the backfill, follows new slots, and matches the simulator', async () => {
    expect(expected.length).toBeGreaterThan(1500);
    const half = Math.floor(expected.length / 2);
    land(expected.slice(0, half), Math.floor(half / 10)); // the invalid fill lands before the first stop

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
    expect(service.source.get()).toMatchObject({ source: 'solana', phase: 'following', slotLag: expect.any(Number), progress: null, reason: null });
    await feed.stop();

    const rows = await service.db.querySql('SELECT * FROM fills ORDER BY seq');
    expect(rows.length).toBe(expected.length);
    expect(new Set(rows.map((r) => r.tx)).size).toBe(expected.length);
    const byTx = new Map(rows.map((r) => [r.tx as string, r]));
    const contractEntry = entriesByContract(expected);
    const problems: string[] = [];
    const exact = [
      'protocol',
      'slot',
      'event_index',
      'position_key',
      'address',
      'market',
      'market_variant',
      'side',
      'type',
      'size_delta_usd',
      'position_size_usd',
      'collateral_delta_usd',
      'position_collateral_usd',
      'pnl_delta_usd',
      'fee_usd',
      'borrowing_fee_usd',
      'funding_fee_usd',
      'liquidation_fee_usd',
      'funding_earned_usd',
      'fee_total_usd',
      'collateral_token',
    ] as const;
    for (const f of expected) {
      const r = byTx.get(f.tx);
      if (!r) {
        problems.push(`missing ${f.tx}`);
        continue;
      }
      for (const k of exact) if (r[k] !== f[k]) problems.push(`${f.tx} ${f.type} ${k}: ${String(r[k])} vs ${String(f[k])}`);
      if (Date.parse(`${String(r.time)}Z`.replace('ZZ', 'Z')) !== f.time) problems.push(`${f.tx} time ${String(r.time)} vs ${f.time}`);
      // prices pass through integers: alpha unit prices × 1e20 (relative 1e-9), beta 6 decimals
      const priceTol = (p: number) => (f.protocol === 'alpha' ? p * 1e-9 : 6e-7);
      for (const k of ['price', 'index_price'] as const) {
        if (Math.abs((r[k] as number) - f[k]) > priceTol(f[k])) problems.push(`${f.tx} ${k}: ${String(r[k])} vs ${f[k]}`);
      }
      // entry = the contract's definition: the size-weighted average of the lifecycle's increases
      const entry = contractEntry.get(f.tx)!;
      if (Math.abs((r.entry_price as number) - entry) > entry * 1e-9) problems.push(`${f.tx} entry_price: ${String(r.entry_price)} vs ${entry}`);
      // the program's own entry: alpha from size / tokens (tokens rounded to the index token's
      // units: a small BTC position holds ~1e5 of them), beta's positionPrice (6 decimals) where
      // its event has one (not on increases)
      const own = r.position_entry_price as number | null;
      const want = f.protocol === 'beta' && (f.type === 'open' || f.type === 'increase') ? null : f.position_entry_price!;
      if (want === null ? own !== null : own === null || Math.abs(own - want) > (f.protocol === 'alpha' ? want * 1e-5 : 6e-7)) {
        problems.push(`${f.tx} ${f.type} position_entry_price: ${String(own)} vs ${String(want)}`);
      }
    }
    expect(problems.slice(0, 10), `${problems.length} problems`).toEqual([]);

    // the same lifecycles (position ids differ only by the order of protocols within a slot)
    const lifecycles = async (s: Service) =>
      await s.db.querySql('SELECT * EXCLUDE (position_id, first_seq, last_seq, entry_price, exit_price, max_leverage) FROM lifecycles ORDER BY protocol, position_key, opened_at');
    const [mine, theirs] = [await lifecycles(service), await lifecycles(reference)];
    expect(mine.length).toBe(theirs.length);
    expect(mine).toEqual(theirs);
    // the invalid fill: quarantined once (stop and restart included), counted, and nothing else
    const quarantined = readFileSync(join(data.dir, 'quarantine', 'solana.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(quarantined).toEqual([expect.objectContaining({ event: expect.stringMatching(/IncreasePositionEvent/), reason: expect.stringMatching(/does not fit the journal's DECIMAL\(18,6\)/) })]);
    expect(service.source.get()).toMatchObject({ source: 'solana', quarantined: 1 });
    // the source went on: fills of both programs after the bad one are in
    const badSlot = quarantined[0]!.slot as number;
    for (const p of ['alpha', 'beta']) expect(rows.some((r) => r.protocol === p && Number(r.slot) > badSlot)).toBe(true);
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

  it('an outage after start-up: retrying since when and why, then following again, the journal intact', async () => {
    const fresh = tempDataDir();
    const service = await openService({ dataDir: fresh.dir });
    try {
      const feed = startSolanaSource(service, { ...options(), retries: 1 });
      await feed.backfilled;
      await waitFor('the whole day', () => service.lastSeq() >= expected.length && service.source.get().phase === 'following');
      faults.down = true;
      const downAt = Date.now();
      await waitFor('the retrying phase', () => service.source.get().phase === 'retrying');
      const s = service.source.get();
      expect(s.reason).toMatch(/HTTP 503 from http:\/\/127\.0\.0\.1:\d+/);
      expect(s.reason).not.toContain('secret');
      expect(s.sinceMs).toBeGreaterThanOrEqual(downAt);
      // the journal keeps answering while the source retries
      expect((await service.db.querySql('SELECT count(*)::INTEGER AS n FROM fills'))[0]!.n).toBe(expected.length);
      faults.down = false;
      await waitFor('following again', () => service.source.get().phase === 'following', 30_000);
      await feed.stop();
      expect(service.lastSeq()).toBe(expected.length);
    } finally {
      faults.down = false;
      await service.close();
      fresh.cleanup();
    }
  }, 60_000);
});
