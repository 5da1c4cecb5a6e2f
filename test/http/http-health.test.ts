/**
 * GET /health (server/http/health.ts): the operators' probe, without a key, through the real app.
 * Known answers on a small journal, 405 for other methods, and 503 when the database cannot answer
 * or the append path has stopped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { at, fill } from '../helpers/fixtures.ts';
import { openTestApp, type TestApp } from '../helpers/app.ts';
import { Writer } from '../../server/db/writer.ts';
import { API_VERSION } from '../../server/http/answer-headers.ts';
import { appLoaded, createApp } from '../../server/main/app.ts';
import { PROBE_TIMEOUT_MS } from '../../server/http/health.ts';
import { HistoryIndex } from '../../server/read/lifecycles/history-index.ts';
import { log } from '../../server/lib/log.ts';

const NOW = at('2026-06-02T00:00:00Z');
let t: TestApp | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  await t?.close();
  t = undefined;
});

const batch = (day: string) => ({
  fills: [fill({ time: at(`${day}T10:00:00Z`), position_key: `L${day}` }), fill({ time: at(`${day}T10:05:00Z`), position_key: `S${day}`, side: 'short' })],
  marketSnapshots: [],
  positionSnapshots: [],
});

describe('GET /health', () => {
  it('answers 200 without a key: journal and derived positions, the newest fill, the last commit', async () => {
    const before = Date.now();
    t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
    const res = await t.get('/health', null);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-api-version')).toBe(API_VERSION);
    const body = await res.json();
    expect(body).toMatchObject({
      status: 'ok',
      problems: [],
      version: API_VERSION,
      journal: { last_seq: 2 },
      derived: { seq: 2, last_fill_time: '2026-06-01T10:05:00.000Z' },
      append: { stopped: false },
    });
    expect(Date.parse(body.append.last_commit_at)).toBeGreaterThanOrEqual(before);
    expect(body.uptime_s).toBeGreaterThanOrEqual(0);
    // the process's memory, DuckDB's part from the probe
    const { rss_mib: rss, js_heap_mib: heap, js_external_mib: external, duckdb_mib: duckdb } = body.memory;
    expect(heap).toBeGreaterThan(0);
    expect(rss).toBeGreaterThan(heap);
    expect(external).toBeGreaterThanOrEqual(0);
    expect(duckdb).toBeGreaterThanOrEqual(0);
    expect(rss).toBeGreaterThan(duckdb);
    // V8's collections since start: garbage made here shows as more of them, with their pauses
    const gcBefore = body.gc as { collections: number; pause_ms: number; max_pause_ms: number };
    let kept = 0;
    // ~50 MB of short-lived arrays and strings: more than the young generation holds
    for (let i = 0; i < 1_000_000; i++) kept += [i, String(i)].length;
    expect(kept).toBe(2_000_000);
    const gcAfter = (await (await t.get('/health', null)).json()).gc;
    expect(gcAfter.collections).toBeGreaterThan(gcBefore.collections);
    expect(gcAfter.pause_ms).toBeGreaterThan(gcBefore.pause_ms);
    expect(gcAfter.max_pause_ms).toBeGreaterThan(0);
    expect(gcAfter.max_pause_ms).toBeLessThanOrEqual(gcAfter.pause_ms);

    // the response cache's counts: one answer computed, then served from the cache
    expect(body.cache).toEqual({ hits: 0, misses: 0, kept_across_appends: 0, entries: 0 });
    for (let i = 0; i < 2; i++) expect((await t.get('/v1/alpha/markets')).status).toBe(200);
    expect((await (await t.get('/health', null)).json()).cache).toEqual({ hits: 1, misses: 1, kept_across_appends: 0, entries: 1 });

    // a later append moves every position (and drops the markets' answer)
    await t.service.append(batch('2026-06-03'));
    const later = await (await t.get('/health', null)).json();
    expect(later.journal.last_seq).toBe(4);
    expect(later.derived).toEqual({ seq: 4, last_fill_time: '2026-06-03T10:05:00.000Z' });
    expect(later.cache).toEqual({ hits: 1, misses: 1, kept_across_appends: 0, entries: 0 });
  });

  it('says when the read side is warming: while a history rebuild waits for the heavy-build gate, and the lifecycle store follows it', async () => {
    t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
    const history = new HistoryIndex(t.service, { rebuildAfter: Infinity });
    const app = createApp(t.service, t.keys, t.limits, { history });
    const warming = async (): Promise<boolean> => (await (await app.request('/health')).json()).read_side.warming;
    const settled = async (): Promise<boolean> => {
      for (let i = 0; i < 200 && (await warming()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      return warming();
    };
    await appLoaded(app);
    expect(await settled(), 'loaded: the working sets, the index mark, the lifecycle store').toBe(false);

    const release = t.service.db.holdReadBuilds();
    const rebuilt = history.rebuild();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(history.behind()).toBe(true);
    expect(await warming()).toBe(true);
    release();
    await rebuilt;
    expect(await settled(), "the rebuild and the store's extension after it are done").toBe(false);
    expect(history.behind()).toBe(false);
  });

  it('on an empty journal: nulls, not errors', async () => {
    t = await openTestApp({ now: NOW });
    const body = await (await t.get('/health', null)).json();
    expect(body).toMatchObject({ status: 'ok', journal: { last_seq: 0 }, derived: { last_fill_time: null }, append: { last_commit_at: null } });
  });

  it('is GET only, and costs no credits (a key is ignored, not metered)', async () => {
    t = await openTestApp({ now: NOW });
    const post = await t.app.request('/health', { method: 'POST' });
    expect(post.status).toBe(405);
    expect((await post.json()).error.code).toBe('method_not_allowed');
    await t.get('/health', 'trial');
    const account = t.keys.list()[0]!.account;
    expect(t.limits.credits.used(account)).toEqual({ requests: 0, credits: 0 });
  });

  it('answers 503 when the database probe fails, without the error in the body', async () => {
    t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    vi.spyOn(t.service.db, 'queryOne').mockRejectedValue(new Error('IO Error: /secret/path/state.duckdb'));
    const res = await t.get('/health', null);
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.status).toBe('failing');
    expect(body.problems).toEqual(['database: the probe query failed (see the log)']);
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(body.journal.last_seq).toBe(2);
    expect(body.memory.duckdb_mib).toBeNull();
    expect(body.memory.rss_mib).toBeGreaterThan(0);
  });

  it('answers 200 when DuckDB refused the probe memory for a moment (a heavy build beside it), 503 when it goes on refusing', async () => {
    t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const db = t.service.db;
    const real = db.queryOne.bind(db);
    const full = new Error('Out of Memory Error: could not allocate block of size 256.0 KiB (610.2 MiB/610.3 MiB used)');
    const probe = vi
      .spyOn(db, 'queryOne')
      .mockRejectedValueOnce(full)
      .mockRejectedValueOnce(full)
      .mockImplementation((name, params) => real(name, params));
    const res = await t.get('/health', null);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(res.status).toBe(200);
    expect((await res.json()).derived.seq).toBe(2);
    probe.mockReset().mockRejectedValue(full);
    const failing = await t.get('/health', null);
    expect(failing.status).toBe(503);
    expect((await failing.json()).problems).toEqual(['database: the probe query failed (see the log)']);
  });

  it(`answers 503 when the database does not answer within ${PROBE_TIMEOUT_MS} ms`, async () => {
    t = await openTestApp({ now: NOW });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(t.service.db, 'queryOne').mockReturnValue(new Promise(() => undefined));
    const pending = t.get('/health', null);
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS);
    const res = await pending;
    expect(res.status).toBe(503);
    expect((await res.json()).problems).toEqual([`database: no answer within ${PROBE_TIMEOUT_MS} ms`]);
  });

  it('answers 503 once the append path has stopped', async () => {
    t = await openTestApp({ now: NOW, batches: [batch('2026-06-01')] });
    vi.spyOn(log, 'error').mockImplementation(() => undefined);
    // the derive fails after a durable journal commit, and so does the catch-up meant to repair it
    const run = Writer.prototype.run;
    vi.spyOn(Writer.prototype, 'run').mockImplementation(function (this: Writer, name, params) {
      if (name === 'derive/lifecycles-insert') return Promise.reject(new Error('derive failed'));
      return run.call(this, name, params);
    });
    await expect(t.service.append(batch('2026-06-03'))).rejects.toThrow();
    const res = await t.get('/health', null);
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.append.stopped).toBe(true);
    expect(body.problems).toEqual(['append path stopped after a failure it could not repair (see the log)']);
  });
});
