/**
 * Endpoints 18 and 19 from the lifecycle store and the open-position set
 * (server/read/lifecycles/lifecycle-store.ts, lifecycle-answers.ts) answer byte for byte as the SQL does, for
 * every alpha lifecycle of a simulated journal and every kind of query: before the store holds
 * anything, right after its first segment, with lifecycles opened, filled and closed after its mark
 * (the tail), after a second segment, and after the app is opened again on its files. A store whose
 * files do not match the state starts again. Beta's store and set answer beta's 18 and 19 the same
 * way, and neither protocol's paths answer with the other's lifecycles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { H3 } from 'h3';
import { createApp } from '../../../server/main/app.ts';
import { mountRoute } from '../../../server/http/mount-route.ts';
import { ResponseCache } from '../../../server/cache/response-cache.ts';
import { handleError } from '../../../server/http/errors.ts';
import { HistoryIndex } from '../../../server/read/lifecycles/history-index.ts';
import { LifecycleStore } from '../../../server/read/lifecycles/lifecycle-store.ts';
import { OpenPositionsIndex, type OpenLifecycle } from '../../../server/read/open-positions/open-positions-index.ts';
import { positionRoutes } from '../../../server/http/routes/positions.ts';
import { Simulator } from '../../../server/sources/simulate/simulator.ts';
import { answersOf } from '../../helpers/answers.ts';
import { openTestApp, type TestApp } from '../../helpers/app.ts';
import { countSqlRuns } from '../../helpers/sql-runs.ts';
import type { Protocol } from '../../../server/journal/rows.ts';

const START = Date.UTC(2026, 3, 20);
const FIRST = Date.UTC(2026, 3, 26);
const NOW = Date.UTC(2026, 4, 2);
const DAY = 86_400_000;

/** The open-position set switched off: `GET /v1/alpha/positions/{address}/{id}`'s record and live fields come from SQL. */
class NoOpenSet extends OpenPositionsIndex {
  override async lifecycle(): Promise<OpenLifecycle | null | undefined> {
    return undefined;
  }
}

let t: TestApp;
let sim: Simulator;
let history: HistoryIndex;
let store: LifecycleStore;
let viaStore: H3;
const plain = new Map<Protocol, H3>();
let day = FIRST;
/** SQL files the service ran, by name (counted while only the store's app asks) */
let ran: Map<string, number>;

beforeAll(async () => {
  sim = new Simulator({ seed: 11, start: START, snapshotsFrom: FIRST });
  t = await openTestApp({ now: NOW, batches: sim.advance(FIRST) });
  history = new HistoryIndex(t.service, { rebuildAfter: Infinity });
  store = LifecycleStore.of(t.service);
  viaStore = createApp(t.service, t.keys, t.limits, { cache: new ResponseCache(t.service, { enabled: false }), history });
  for (const protocol of ['alpha', 'beta'] as const) {
    const app = new H3({ silent: true, onError: handleError });
    const routes = positionRoutes(t.service, { history, lifecycles: null, openPositions: new NoOpenSet(t.service, protocol) }, protocol);
    for (const route of routes) mountRoute(app, route, t.keys);
    plain.set(protocol, app);
  }
  ran = countSqlRuns(t.service.db);
}, 60_000);
afterAll(() => t.close());

const QUERIES = [
  '',
  '?order=desc',
  '?sort_by=size',
  '?sort_by=size&order=desc&limit=2',
  '?include_collateral_events=true',
  '?type=increase&offset=1&limit=1',
  '?type=liquidation',
  '?sort_by=time&order=desc&offset=2&limit=3',
  '?offset=40',
];

/**
 * Every lifecycle of `protocol` (open, closed, liquidated) and one of the other protocol: [address,
 * id, status, or 'beta' for the other protocol's (it is a 404 on these paths)].
 */
async function lifecycles(protocol: Protocol = 'alpha'): Promise<[string, number, string][]> {
  const rows = await t.service.db.querySql(
    `(SELECT address, position_id, status FROM lifecycles WHERE protocol = $p)
    UNION ALL (SELECT address, position_id, 'beta' FROM lifecycles WHERE protocol <> $p LIMIT 1) ORDER BY position_id`,
    { p: protocol },
  );
  return rows.map((r) => [r.address as string, Number(r.position_id), r.status as string]);
}

/** Paths asked per lifecycle: 18 and 19 with its own and another address, then 19 with each query. */
const PATHS_PER_LIFECYCLE = 4 + QUERIES.length;

/** The 18 and 19 SQL the store's app ran per lifecycle kind: DuckDB's reads of one lifecycle, and the tail. */
const SQL_READS = ['api/alpha-position', 'api/alpha-position-span', 'api/alpha-position-lifecycle'];

/**
 * Asks both apps for 18 and 19 (every query) of `count` lifecycles spread over the ids (open ones
 * among them as they come, the last one always) and a beta one; returns how many answers matched
 * and which SQL the store's app ran. The store's app asks first, one path at a time as a client
 * would; the plain app then asks the same paths a few at a time (its SQL is not counted).
 */
async function expectSameAnswers(stage: string, count = 80, protocol: Protocol = 'alpha'): Promise<{ answers: number; sqlReads: number; tails: number }> {
  const init = { headers: { 'x-api-key': t.key('internal') } };
  const all = await lifecycles(protocol);
  const other = all.find(([a]) => a !== all[0]![0])![0];
  const step = Math.max(1, Math.floor(all.length / count));
  const paths: string[] = [];
  for (const [i, [address, id, status]] of all.entries()) {
    if (i % step !== 0 && i !== all.length - 1 && !(status === 'open' && i % 3 === 0) && status !== 'beta') continue;
    const base = `/v1/${protocol}/positions/${address}/${id}`;
    paths.push(base, `/v1/${protocol}/positions/${other}/${id}`, `${base}/lifecycle`, `/v1/${protocol}/positions/${other}/${id}/lifecycle`, ...QUERIES.map((q) => `${base}/lifecycle${q}`));
  }
  ran.clear();
  const fromStore = await answersOf(viaStore, paths, init, 1);
  const sqlReads = SQL_READS.reduce((sum, name) => sum + (ran.get(name) ?? 0), 0);
  const tails = ran.get('read/lifecycles/alpha-position-tail') ?? 0;
  const fromSql = await answersOf(plain.get(protocol)!, paths, init);
  for (const [i, path] of paths.entries()) {
    expect(fromStore[i], `${stage} ${path}`).toBe(fromSql[i]);
    const body = JSON.parse(fromStore[i]!.slice(fromStore[i]!.indexOf(' ') + 1)) as { data?: { protocol?: string } };
    if (body.data && !Array.isArray(body.data)) expect(body.data.protocol, `${stage} ${path}`).toBe(protocol);
  }
  return { answers: paths.length, sqlReads, tails };
}

describe('endpoints 18 and 19 from the lifecycle store', () => {
  it('answer as the SQL does at every stage of the store', async () => {
    await store.follow(history);
    expect(store.view().mark).toBe(0);
    await expectSameAnswers('no store', 30);

    await history.rebuild(); // the store follows the history index's mark
    await store.follow(history);
    const first = store.view().mark;
    expect(first).toBe(t.service.lastSeq());
    const [counts] = await t.service.db.querySql(`SELECT count(*) FILTER (WHERE status <> 'open')::DOUBLE AS closed,
      count(*) FILTER (WHERE status = 'open')::DOUBLE AS open FROM lifecycles WHERE protocol = 'alpha'`);
    expect(Number(counts!.closed)).toBeGreaterThan(200);
    expect(Number(counts!.open)).toBeGreaterThan(20);
    expect(store.view().prefixes.size).toBe(Number(counts!.open));
    const built = await expectSameAnswers('first segment');
    expect(built.answers).toBeGreaterThan(1000);
    // only the beta lifecycle's paths read DuckDB (one query each: the record or the span, a 404)
    expect(built.sqlReads).toBe(PATHS_PER_LIFECYCLE);
    expect(built.tails).toBe(0);

    // a day later: lifecycles opened, filled and closed after the mark (the tail)
    day += DAY;
    for (const batch of sim.advance(day)) await t.service.append(batch);
    const [tail] = await t.service.db.querySql(
      `SELECT count(*) FILTER (WHERE status <> 'open' AND first_seq <= $m)::DOUBLE AS closed_after,
      count(*) FILTER (WHERE status = 'open' AND first_seq <= $m AND last_seq > $m)::DOUBLE AS open_filled,
      count(*) FILTER (WHERE first_seq > $m)::DOUBLE AS opened_after
      FROM lifecycles WHERE protocol = 'alpha' AND last_seq > $m`,
      { m: first },
    );
    expect(Number(tail!.closed_after)).toBeGreaterThan(5);
    expect(Number(tail!.open_filled)).toBeGreaterThan(0);
    expect(Number(tail!.opened_after)).toBeGreaterThan(5);
    const withTail = await expectSameAnswers('tail', 100);
    expect(withTail.tails, 'open lifecycles filled after the mark read their tail').toBeGreaterThan(0);
    expect(withTail.sqlReads, 'lifecycles closed after the mark are read from DuckDB').toBeGreaterThan(PATHS_PER_LIFECYCLE);

    await history.rebuild();
    await store.follow(history);
    expect(store.view().mark).toBeGreaterThan(first);
    const dir = join(t.dir, 'read-index', 'lifecycles');
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toHaveLength(2);
    const second = await expectSameAnswers('second segment', 40);
    expect(second.sqlReads).toBe(PATHS_PER_LIFECYCLE);
  }, 180_000);

  it('reopens on its files, and starts again when they do not match the state or name other files', async () => {
    const dir = join(t.dir, 'read-index', 'lifecycles');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { mark: number; mark_tx: string };
    const files = readdirSync(dir).sort();
    // a leftover of a write that was cut short is removed
    writeFileSync(join(dir, '.tmp-seg-1-2.jsonl'), 'half');

    // the same files, another process: a fresh store over the same state (WeakMap key: the db)
    const reopened = new LifecycleStore(t.service);
    await reopened.follow(history);
    expect(reopened.view().mark).toBe(manifest.mark);
    expect(readdirSync(dir).sort()).toEqual(files);
    const closed = (await lifecycles()).find(([, , s]) => s === 'closed')!;
    expect((await reopened.view().closed(closed[1]))?.record.address).toBe(closed[0]);
    await reopened.close();

    // a manifest from another journal (its last fill's tx differs): everything is written again
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, mark_tx: 'another journal' }));
    const restarted = new LifecycleStore(t.service);
    await restarted.follow(history);
    expect(restarted.view().mark).toBe(await history.mark());
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([`seg-0-${await history.mark()}.jsonl`]);
    expect(existsSync(join(dir, '.tmp-seg-1-2.jsonl'))).toBe(false);
    expect((await restarted.view().closed(closed[1]))?.record.address).toBe(closed[0]);
    await restarted.close();

    // a manifest naming a file that is not a segment's is not followed outside the directory
    const current = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { segments: { file: string }[] };
    const outside = join(t.dir, 'keys.jsonl');
    writeFileSync(outside, "not the store's");
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...current, segments: [{ ...current.segments[0], file: '../../keys.jsonl' }] }));
    const guarded = new LifecycleStore(t.service);
    await guarded.follow(history);
    expect(readdirSync(dir).filter((f) => f.endsWith('.jsonl'))).toEqual([`seg-0-${await history.mark()}.jsonl`]);
    expect((await guarded.view().closed(closed[1]))?.record.address).toBe(closed[0]);
    expect(readFileSync(outside, 'utf8')).toBe("not the store's");
    await guarded.close();
  }, 60_000);

  it('builds nothing while the database holds heavy read-side builds (a source backfilling at start)', async () => {
    const dir = join(t.dir, 'read-index', 'lifecycles');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { mark_tx: string };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, mark_tx: 'another journal' }));
    const release = t.service.db.holdReadBuilds();
    const held = new LifecycleStore(t.service);
    let followed = false;
    const following = held.follow(history).then(() => (followed = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(followed).toBe(false);
    expect(held.view().mark).toBe(0);
    expect(held.busy(), 'an extension waits: /health says warming').toBe(true);
    release();
    await following;
    expect(held.busy()).toBe(false);
    expect(held.view().mark).toBe(await history.mark());
    await held.close();
  }, 60_000);

  it("answers beta as the SQL does from beta's own store and open-position set", async () => {
    const beta = LifecycleStore.of(t.service, 'beta');
    await beta.follow(history); // the app's beta store followed the index's rebuilds above
    const mark = beta.view().mark;
    expect(mark).toBe(await history.mark());
    const [counts] = await t.service.db.querySql(
      `SELECT count(*) FILTER (WHERE status = 'open' AND first_seq <= $m)::DOUBLE AS open
      FROM lifecycles WHERE protocol = 'beta'`,
      { m: mark },
    );
    expect(beta.view().prefixes.size).toBe(Number(counts!.open));
    expect(Number(counts!.open)).toBeGreaterThan(20);
    // a day of beta fills after the mark: open lifecycles read their tail, later closes DuckDB
    day += DAY;
    for (const batch of sim.advance(day)) await t.service.append(batch);
    const built = await expectSameAnswers('beta', 80, 'beta');
    expect(built.answers).toBeGreaterThan(1000);
    expect(built.tails).toBeGreaterThan(0);
    await beta.extend(t.service.lastSeq());
    const extended = await expectSameAnswers('beta extended', 40, 'beta');
    // only the alpha lifecycle's paths read DuckDB
    expect(extended.sqlReads).toBe(PATHS_PER_LIFECYCLE);
  }, 180_000);
});
