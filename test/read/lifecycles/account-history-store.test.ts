/**
 * Endpoint 15 from the lifecycle store's account files and the in-memory tail of lifecycles closed
 * after its mark (server/read/lifecycles/account-history.ts, lifecycle-accounts.ts, closed-tail.ts) answers byte
 * for byte as sql/read/lifecycles/alpha-account-history.sql does: every filter, sort, order and page, with and
 * without the plan's history depth, for accounts of every size, unknown and other-protocol-only
 * addresses, at every stage of the store (none, a first segment, closes after its mark, a second
 * segment, a third merged with the second, reopened on its files), and with a tail too long to hold
 * (the route then runs the SQL). Beta's store (its own files, its own tail) answers beta's endpoint
 * 15 the same way, and neither protocol's answers hold the other's lifecycles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { H3 } from 'h3';
import { mountRoute } from '../../../server/http/mount-route.ts';
import { handleError } from '../../../server/http/errors.ts';
import { HistoryIndex } from '../../../server/read/lifecycles/history-index.ts';
import { LifecycleStore } from '../../../server/read/lifecycles/lifecycle-store.ts';
import { ClosedTail } from '../../../server/read/lifecycles/closed-tail.ts';
import { positionRoutes } from '../../../server/http/routes/positions.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { answersOf } from '../../helpers/answers.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';
import { countSqlRuns } from '../../helpers/sql-runs.ts';
import type { Protocol } from '../../../server/journal/rows.ts';

const START = Date.UTC(2026, 3, 14);
const FIRST = Date.UTC(2026, 3, 24);
const DAY = 86_400_000;
/** "now" 30 days after START + 2: a 30-day plan omits the lifecycles opened in the first two days */
const NOW = START + 32 * DAY;

let t: TestApp;
let sim: Simulator;
let history: HistoryIndex;
let store: LifecycleStore;
const plain = new Map<Protocol, H3>();
let day = FIRST;
let ran: Map<string, number>;

/** An app whose `GET /v1/{protocol}/accounts/{address}/history` reads `lifecycles` and `tail` (the store's when they can answer). */
function appOver(lifecycles: LifecycleStore, tail: ClosedTail, protocol: Protocol = 'alpha'): H3 {
  const app = new H3({ silent: true, onError: handleError });
  for (const route of positionRoutes(t.service, { history, lifecycles, closedTail: tail }, protocol)) mountRoute(app, route, t.keys);
  return app;
}

beforeAll(async () => {
  sim = new Simulator({ seed: 5, start: START, snapshotsFrom: FIRST });
  t = await openTestApp({ now: NOW, batches: sim.advance(FIRST) });
  history = new HistoryIndex(t.service, { rebuildAfter: Infinity });
  store = LifecycleStore.of(t.service);
  for (const protocol of ['alpha', 'beta'] as const) {
    const app = new H3({ silent: true, onError: handleError });
    for (const route of positionRoutes(t.service, { history, lifecycles: null }, protocol)) mountRoute(app, route, t.keys);
    plain.set(protocol, app);
  }
  ran = countSqlRuns(t.service.db);
}, 60_000);
afterAll(() => t.close());

const other = (protocol: Protocol): Protocol => (protocol === 'alpha' ? 'beta' : 'alpha');

/**
 * The addresses asked for: the three of `protocol` with most closed lifecycles, a spread of the
 * rest, the busiest with closed lifecycles of both protocols, and odd ones (the other protocol's only, unknown).
 */
async function addresses(protocol: Protocol = 'alpha'): Promise<string[]> {
  const rows = await t.service.db.querySql(
    `SELECT address, count(*) FILTER (WHERE status <> 'open')::DOUBLE AS closed
    FROM lifecycles WHERE protocol = $p GROUP BY address ORDER BY closed DESC, address`,
    { p: protocol },
  );
  const all = rows.map((r) => r.address as string);
  const step = Math.max(1, Math.floor(all.length / 10));
  const [otherOnly] = await t.service.db.querySql(
    `SELECT address FROM lifecycles WHERE protocol = $o
    AND address NOT IN (SELECT address FROM lifecycles WHERE protocol = $p) LIMIT 1`,
    { p: protocol, o: other(protocol) },
  );
  const both = await t.service.db.querySql(`SELECT address FROM lifecycles WHERE status <> 'open' GROUP BY address
    HAVING count(DISTINCT protocol) = 2 ORDER BY count(*) DESC, address LIMIT 1`);
  return [
    ...all.slice(0, 3),
    ...all.filter((_, i) => i % step === 0),
    all.at(-1)!,
    ...both.map((r) => r.address as string),
    otherOnly!.address as string,
    '1111111111111111111111111111111111111111111',
  ];
}

/** Queries per address: each sort both ways, filters (an alpha variant: none of beta's), pages inside and past the end. */
async function queries(protocol: Protocol = 'alpha'): Promise<string[]> {
  const [m] = await t.service.db.querySql(`SELECT market FROM lifecycles WHERE protocol = $p LIMIT 1`, { p: protocol });
  const [v] = await t.service.db.querySql(`SELECT market_variant FROM lifecycles WHERE protocol = 'alpha' LIMIT 1`);
  const market = encodeURIComponent(m!.market as string);
  const variant = encodeURIComponent(v!.market_variant as string);
  return [
    '',
    '?order=asc',
    '?sort_by=closed_at&limit=7',
    '?sort_by=size&order=asc&offset=3&limit=5',
    '?sort_by=size',
    '?sort_by=pnl&limit=4',
    '?sort_by=pnl&order=asc&offset=1',
    '?sort_by=leverage&limit=9',
    '?sort_by=leverage&order=asc',
    `?market=${market}&sort_by=pnl`,
    `?market_variant=${variant}&order=asc&limit=3`,
    `?market=${market}&market_variant=${variant}`,
    '?offset=4&limit=2',
    '?offset=100000',
  ];
}

/** Queries also asked with a 30-day plan (the rest with no history depth). */
const WITH_DEPTH = new Set(['', '?sort_by=size&order=asc&offset=3&limit=5', '?sort_by=pnl&limit=4', '?offset=100000']);

/**
 * Asks `app` and the SQL-only app the same paths (`few`: for the first six addresses only); returns
 * how many answers matched and the SQL `app` ran. `app` asks one path at a time as a client would;
 * the SQL-only app then asks them a few at a time (its SQL is not counted).
 */
async function expectSameAnswers(stage: string, app: H3, few = false, protocol: Protocol = 'alpha'): Promise<{ answers: number; sql: number; tailReads: number; accountChecks: number; rows: number }> {
  const list = (await addresses(protocol)).slice(0, few ? 6 : undefined);
  const qs = await queries(protocol);
  let rows = 0;
  let n = 0;
  let sql = 0;
  let tailReads = 0;
  let accountChecks = 0;
  for (const plan of ['internal', 'starter'] as const) {
    const init = { headers: { 'x-api-key': t.key(plan) } };
    const paths = list.flatMap((address) => qs.filter((q) => plan === 'internal' || WITH_DEPTH.has(q)).map((q) => `/v1/${protocol}/accounts/${address}/history${q}`));
    ran.clear();
    const answers = await answersOf(app, paths, init, 1);
    sql += ran.get('read/lifecycles/alpha-account-history') ?? 0;
    tailReads += ran.get('read/lifecycles/alpha-closed-after') ?? 0;
    accountChecks += ran.get('read/lifecycles/alpha-account-exists') ?? 0;
    const fromSql = await answersOf(plain.get(protocol)!, paths, init);
    for (const [i, path] of paths.entries()) {
      expect(answers[i], `${stage} ${plan} ${path}`).toBe(fromSql[i]);
      const body = JSON.parse(answers[i]!.slice(answers[i]!.indexOf(' ') + 1)) as { data?: { protocol: string }[] };
      for (const row of body.data ?? []) expect(row.protocol, `${stage} ${plan} ${path}`).toBe(protocol);
      rows += body.data?.length ?? 0;
    }
    n += paths.length;
  }
  return { answers: n, sql, tailReads, accountChecks, rows };
}

describe('endpoint 15 from the lifecycle store', () => {
  it('answers as the SQL does at every stage of the store', async () => {
    const viaStore = appOver(store, new ClosedTail(t.service));
    await store.follow(history);
    const none = await expectSameAnswers('no store', viaStore);
    expect(none.sql, 'an empty store leaves every answer to DuckDB').toBeGreaterThan(0);

    await history.rebuild();
    await store.follow(history);
    const first = store.view().mark;
    expect(first).toBe(t.service.lastSeq());
    const built = await expectSameAnswers('first segment', viaStore);
    expect(built.answers).toBeGreaterThan(200);
    expect(built.sql).toBe(0);
    expect(built.tailReads).toBe(1); // the first read; no append since
    // the account check reads DuckDB only for addresses without a closed lifecycle (404s among them)
    const withClosed = new Set(
      (
        await t.service.db.querySql(`SELECT DISTINCT address FROM lifecycles
      WHERE protocol = 'alpha' AND status <> 'open'`)
      ).map((r) => r.address as string),
    );
    const without = (await addresses()).filter((a) => !withClosed.has(a)).length;
    expect(without).toBeGreaterThanOrEqual(2); // the beta-only and the unknown address
    expect(built.accountChecks).toBe(without * ((await queries()).length + WITH_DEPTH.size));
    // the 30-day plan omitted lifecycles (the check would pass vacuously otherwise)
    const [cut] = await t.service.db.querySql(
      `SELECT count(*)::DOUBLE AS n FROM lifecycles
      WHERE protocol = 'alpha' AND status <> 'open' AND opened_at < epoch_ms($since::BIGINT)`,
      { since: NOW - 30 * DAY },
    );
    expect(Number(cut!.n)).toBeGreaterThan(5);

    // two days later: lifecycles closed after the mark, some of them opened before it
    for (const batch of sim.advance((day += 2 * DAY))) await t.service.append(batch);
    const [after] = await t.service.db.querySql(
      `SELECT count(*)::DOUBLE AS n FROM lifecycles
      WHERE protocol = 'alpha' AND status <> 'open' AND last_seq > $m AND first_seq <= $m`,
      { m: first },
    );
    expect(Number(after!.n)).toBeGreaterThan(5);
    const withTail = await expectSameAnswers('tail', viaStore);
    expect(withTail.sql).toBe(0);
    expect(withTail.tailReads).toBe(1); // the lifecycles closed since, once

    // a tail longer than its cap: DuckDB answers
    const small = await expectSameAnswers('tail over its cap', appOver(store, new ClosedTail(t.service, { cap: 3 })), true);
    expect(small.sql).toBeGreaterThan(0);

    await history.rebuild();
    await store.follow(history);
    expect(store.view().mark).toBeGreaterThan(first);
    const secondAnswers = await expectSameAnswers('second segment', viaStore);
    expect(secondAnswers.sql).toBe(0);

    // a third segment about as big as the second: the two are merged into one
    const second = store.view().mark;
    const before = store.view();
    for (const batch of sim.advance((day += 2 * DAY))) await t.service.append(batch);
    await history.rebuild();
    await store.follow(history);
    const third = store.view().mark;
    const dir = join(t.dir, 'read-index', 'lifecycles');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { segments: { file: string }[] };
    expect(manifest.segments.map((m) => m.file)).toEqual([`seg-0-${first}.jsonl`, `seg-${first}-${third}.jsonl`]);
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .sort(),
    ).toEqual(manifest.segments.map((m) => m.file).sort());
    const merged = await expectSameAnswers('merged segments', viaStore);
    expect(merged.sql).toBe(0);
    // every closed lifecycle is in the store once (18), and a view from before the merge still reads
    const closed = await t.service.db.querySql(`SELECT position_id::DOUBLE AS id, last_seq::DOUBLE AS last_seq FROM lifecycles
      WHERE protocol = 'alpha' AND status <> 'open'`);
    for (const r of closed) expect(await store.view().closed(Number(r.id)), `lifecycle ${r.id}`).toBeDefined();
    const old = closed.find((r) => Number(r.last_seq) > first && Number(r.last_seq) <= second)!;
    expect((await before.closed(Number(old.id)))?.record.position_id).toBe(Number(old.id));

    // the same files opened by another store (another process)
    const reopened = new LifecycleStore(t.service);
    await reopened.follow(history);
    const again = await expectSameAnswers('reopened', appOver(reopened, new ClosedTail(t.service)), true);
    expect(again.sql).toBe(0);
    await reopened.close();
  }, 240_000);

  it("answers beta as the SQL does from beta's own store and tail", async () => {
    const beta = LifecycleStore.of(t.service, 'beta');
    expect(beta).not.toBe(store);
    const viaStore = appOver(beta, new ClosedTail(t.service, {}, 'beta'), 'beta');
    // the index built (by the test above, or here when run alone): the beta store's first segment
    // holds every closed beta lifecycle up to its mark
    if ((await history.mark()) === 0) await history.rebuild();
    await beta.follow(history);
    expect(beta.view().mark).toBe(await history.mark());
    const closed = await t.service.db.querySql(
      `SELECT protocol, position_id::DOUBLE AS id FROM lifecycles
      WHERE status <> 'open' AND last_seq <= $m`,
      { m: beta.view().mark },
    );
    for (const r of closed) {
      const held = await beta.view().closed(Number(r.id));
      if (r.protocol === 'beta') expect(held?.record.position_id, `beta lifecycle ${r.id}`).toBe(Number(r.id));
      else expect(held, `alpha lifecycle ${r.id} in beta's store`).toBeUndefined();
    }
    const built = await expectSameAnswers('beta first segment', viaStore, false, 'beta');
    expect(built.sql).toBe(0);
    expect(built.rows).toBeGreaterThan(200);
    expect(readdirSync(join(t.dir, 'read-index', 'lifecycles-beta')).some((f) => f.endsWith('.jsonl'))).toBe(true);

    // beta lifecycles closed after the mark come from beta's tail
    const first = beta.view().mark;
    for (const batch of sim.advance((day += 2 * DAY))) await t.service.append(batch);
    const [after] = await t.service.db.querySql(
      `SELECT count(*)::DOUBLE AS n FROM lifecycles
      WHERE protocol = 'beta' AND status <> 'open' AND last_seq > $m`,
      { m: first },
    );
    expect(Number(after!.n)).toBeGreaterThan(5);
    const withTail = await expectSameAnswers('beta tail', viaStore, false, 'beta');
    expect(withTail.sql).toBe(0);
    expect(withTail.tailReads).toBe(1);

    // a second segment (extended directly: a rebuild of the index would also extend the store
    // reopened above over alpha's files, beside alpha's own)
    await beta.extend(t.service.lastSeq());
    expect(beta.view().mark).toBeGreaterThan(first);
    expect((await expectSameAnswers('beta second segment', viaStore, false, 'beta')).sql).toBe(0);
    // alpha's store, its tail beside beta's, still answers alpha alone
    await store.follow(history);
    expect((await expectSameAnswers('alpha beside beta', appOver(store, new ClosedTail(t.service)), true)).sql).toBe(0);
  }, 240_000);
});
