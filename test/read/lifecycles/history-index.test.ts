/**
 * Endpoints 15 and 18 through the read index (server/read/lifecycles/history-index.ts): the closed
 * lifecycles of both protocols up to the index's mark come from `history_index` (sorted by
 * address), the later
 * ones from `lifecycles`, the open ones from `open_lifecycles`. At every stage (never built, built, a tail of later closes, built again, rebuilt
 * by itself once the tail is long) each answer equals the one read from `lifecycles` alone, which
 * the known-answer tests of test/http/http-positions.test.ts pin.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { H3 } from 'h3';
import { createApp } from '../../../server/main/app.ts';
import { ResponseCache } from '../../../server/cache/response-cache.ts';
import { HistoryIndex } from '../../../server/read/lifecycles/history-index.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';

const START = Date.UTC(2026, 3, 20);
const FIRST = Date.UTC(2026, 3, 24);
const NOW = Date.UTC(2026, 3, 30);
const DAY = 86_400_000;

/** The route with no index: everything from `lifecycles` (the answer before the index existed). */
class NoIndex extends HistoryIndex {
  override async mark(): Promise<number> {
    return 0;
  }
}

let t: TestApp;
let sim: Simulator;
let indexed: HistoryIndex;
let viaIndex: H3;
let plain: H3;
let day = FIRST;

beforeAll(async () => {
  sim = new Simulator({ seed: 5, start: START, snapshotsFrom: NOW });
  t = await openTestApp({ now: NOW, batches: sim.advance(FIRST) });
  indexed = new HistoryIndex(t.service, { rebuildAfter: Infinity });
  const off = () => new ResponseCache(t.service, { enabled: false });
  viaIndex = createApp(t.service, t.keys, t.limits, { cache: off(), history: indexed });
  plain = createApp(t.service, t.keys, t.limits, { cache: off(), history: new NoIndex(t.service) });
}, 60_000);
afterAll(() => t.close());

const PROTOCOLS = ['alpha', 'beta'] as const;
type Protocol = (typeof PROTOCOLS)[number];

/** Addresses with closed lifecycles of `protocol`: the busiest, and some with only a few. */
async function addresses(protocol: Protocol): Promise<string[]> {
  const rows = await t.service.db.querySql(
    `SELECT address, count(*) AS n FROM lifecycles
    WHERE protocol = $p AND status <> 'open' GROUP BY address ORDER BY n DESC, address`,
    { p: protocol },
  );
  const all = rows.map((r) => r.address as string);
  return [...all.slice(0, 3), ...all.slice(-3), all[Math.floor(all.length / 2)]!];
}

const QUERIES = ['', '?sort_by=pnl&order=asc&limit=7', '?sort_by=closed_at&offset=5&limit=3', '?sort_by=size&market=SOL-PERP', '?sort_by=leverage&order=desc&limit=100'];

/** Endpoint 18's paths of an address: its first and last lifecycles (closed or open), and an unknown id. */
async function positionPaths(protocol: Protocol, address: string): Promise<string[]> {
  const rows = await t.service.db.querySql(
    `SELECT position_id FROM lifecycles WHERE protocol = $p AND address = $a
    ORDER BY position_id`,
    { p: protocol, a: address },
  );
  const ids = rows.map((r) => Number(r.position_id));
  return [...ids.slice(0, 2), ...ids.slice(-2), 999_999_999].map((id) => `/v1/${protocol}/positions/${address}/${id}`);
}

/**
 * Every (address, query) answer through the index (15, 18) of both protocols equals the one from
 * `lifecycles` alone, and holds only lifecycles of its protocol; returns the rows of each protocol.
 */
async function expectSameAnswers(stage: string): Promise<Record<Protocol, number>> {
  const rows = { alpha: 0, beta: 0 };
  for (const protocol of PROTOCOLS) rows[protocol] = await expectSameAnswersOf(protocol, stage);
  return rows;
}

async function expectSameAnswersOf(protocol: Protocol, stage: string): Promise<number> {
  let rows = 0;
  const key = t.key('internal');
  for (const address of await addresses(protocol)) {
    for (const path of await positionPaths(protocol, address)) {
      const init = { headers: { 'x-api-key': key } };
      const [a, b] = await Promise.all([viaIndex.request(path, init), plain.request(path, init)]);
      expect(a.status, `${stage} ${path}`).toBe(b.status);
      expect(await a.text(), `${stage} ${path}`).toBe(await b.text());
    }
    for (const q of QUERIES) {
      const path = `/v1/${protocol}/accounts/${address}/history${q}`;
      const init = { headers: { 'x-api-key': key } };
      const [a, b] = await Promise.all([viaIndex.request(path, init), plain.request(path, init)]);
      const body = await a.text();
      expect(a.status, `${stage} ${path}`).toBe(200);
      expect(body, `${stage} ${path}`).toBe(await b.text());
      const data = (JSON.parse(body) as { data: { protocol: string; address: string }[] }).data;
      for (const row of data) expect(`${row.protocol} ${row.address}`, `${stage} ${path}`).toBe(`${protocol} ${address}`);
      rows += data.length;
    }
  }
  return rows;
}

/** The index's rows and the closed lifecycles up to its mark, each as `alpha rows, beta rows`. */
async function indexState(): Promise<{ rows: string; sorted: boolean; closedUpToMark: string; mark: number }> {
  const [r] = await t.service.db.querySql(`SELECT
    (SELECT count(*) FILTER (protocol = 'alpha') || ', ' || count(*) FILTER (protocol = 'beta') FROM history_index) AS rows,
    (SELECT count(*) FILTER (protocol NOT IN ('alpha', 'beta')) FROM history_index)::DOUBLE AS other,
    (SELECT coalesce(bool_and(address >= prev), true) FROM (SELECT address, lag(address, 1, '') OVER (ORDER BY rowid) AS prev FROM history_index)) AS sorted,
    (SELECT coalesce(max(last_seq), 0) FROM history_index_mark)::DOUBLE AS mark`);
  expect(Number(r!.other)).toBe(0);
  const mark = Number(r!.mark);
  const [c] = await t.service.db.querySql(`SELECT count(*) FILTER (protocol = 'alpha') || ', ' || count(*) FILTER (protocol = 'beta') AS n
    FROM lifecycles WHERE status IN ('closed', 'liquidated') AND last_seq <= ${mark}`);
  return { rows: r!.rows as string, sorted: r!.sorted as boolean, closedUpToMark: c!.n as string, mark };
}

describe('endpoint 15 through its read index', () => {
  it('answers as from lifecycles alone: never built, built, with a tail, built again', async () => {
    expect(await indexed.mark()).toBe(0);
    const served = await expectSameAnswers('never built');
    expect(served.alpha).toBeGreaterThan(50);
    expect(served.beta).toBeGreaterThan(50);

    await indexed.rebuild();
    const built = await indexState();
    expect(built.mark).toBe(await indexed.mark());
    expect(built.mark).toBe(t.service.lastSeq());
    expect(built.rows).toBe(built.closedUpToMark);
    for (const n of built.rows.split(', ')) expect(Number(n)).toBeGreaterThan(100);
    expect(built.sorted).toBe(true);
    await expectSameAnswers('built');

    // more days: new closes land in the tail, after the mark
    day += 2 * DAY;
    for (const batch of sim.advance(day)) await t.service.append(batch);
    const tail = await t.service.db.querySql(`SELECT count(*)::DOUBLE AS n FROM lifecycles
      WHERE status <> 'open' AND last_seq > ${built.mark} GROUP BY protocol`);
    expect(tail.length).toBe(2);
    for (const n of tail) expect(Number(n.n)).toBeGreaterThan(10);
    await expectSameAnswers('tail');

    await indexed.rebuild();
    const again = await indexState();
    expect(again.mark).toBeGreaterThan(built.mark);
    expect(again.rows).toBe(again.closedUpToMark);
    await expectSameAnswers('built again');

    // with `GET /v1/alpha/accounts/search`'s snapshot loaded, the account check comes from it; an
    // unknown address is a 404 either way
    const init = { headers: { 'x-api-key': t.key('internal') } };
    expect((await viaIndex.request('/v1/alpha/accounts/search?limit=1', init)).status).toBe(200);
    await expectSameAnswers('account check from the snapshot');
    for (const protocol of PROTOCOLS) {
      const unknown = `/v1/${protocol}/accounts/Unknown111111111111111111111111111111111111/history`;
      for (const app of [viaIndex, plain]) expect((await app.request(unknown, init)).status).toBe(404);
    }
  }, 60_000);

  it('holds a rebuild back while bulk appends come, then rebuilds', async () => {
    const held = new HistoryIndex(t.service, { rebuildAfter: 1, bulk: { fills: 1, quietMs: 400 } });
    await held.open();
    const before = await held.mark();
    day += DAY;
    for (const batch of sim.advance(day)) await t.service.append(batch);
    expect(await held.mark(), 'no rebuild right after a bulk append').toBe(before);
    for (let i = 0; i < 100 && (await held.mark()) === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await held.mark()).toBeGreaterThan(before);
  }, 60_000);

  it('waits while the database holds heavy read-side builds (a source backfilling at start)', async () => {
    day += DAY;
    for (const batch of sim.advance(day)) await t.service.append(batch);
    const waiting = new HistoryIndex(t.service, { rebuildAfter: Infinity });
    const before = await waiting.mark();
    const release = t.service.db.holdReadBuilds();
    let rebuilt = false;
    const rebuild = waiting.rebuild().then(() => (rebuilt = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(rebuilt).toBe(false);
    expect(await waiting.mark()).toBe(before);
    expect(waiting.behind(), 'a rebuild waits: /health says warming').toBe(true);
    release();
    await rebuild;
    expect(waiting.behind()).toBe(false);
    expect(await waiting.mark()).toBe(t.service.lastSeq());
    expect(t.service.lastSeq()).toBeGreaterThan(before);
  }, 60_000);

  it('rebuilds by itself once the tail passes its threshold, and a reader at an older mark still answers exactly', async () => {
    const auto = new HistoryIndex(t.service, { rebuildAfter: 5, bulk: { fills: Infinity, quietMs: 0 } });
    const stale = new HistoryIndex(t.service, { rebuildAfter: Infinity });
    await auto.open();
    const before = await auto.mark();
    const staleMark = await stale.mark(); // an older mark: rows past it are in the index and the tail
    day += DAY;
    for (const batch of sim.advance(day)) await t.service.append(batch);
    for (let i = 0; i < 100 && (await auto.mark()) === before; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await auto.mark()).toBeGreaterThan(before);
    expect(await stale.mark()).toBe(staleMark);
    viaIndex = createApp(t.service, t.keys, t.limits, { cache: new ResponseCache(t.service, { enabled: false }), history: stale });
    await expectSameAnswers('older mark than the index');
  }, 60_000);
});
