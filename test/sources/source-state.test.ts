/**
 * The source state while history is built: every answer carries `x-data-complete-to` (through a
 * real server: REST, /health, errors, the hit lane), `/health` shows the source's phase, progress
 * and ETA; the simulator's backfill reports them, and a backfill killed midway resumes from its
 * last append instead of simulating again from the start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETE_TO_HEADER } from '../../server/http/completeness.ts';
import type { RunningServer } from '../../server/main/serve.ts';
import { openService, type Service } from '../../server/service.ts';
import { openSimulator, simulatedTo, simulateUntil } from '../../server/sources/simulate/source.ts';
import { at, tempDataDir } from '../helpers/fixtures.ts';
import { openOneFillServer } from '../helpers/one-fill-server.ts';

describe('x-data-complete-to and /health source', () => {
  let server: RunningServer;
  let service: Service;
  let key: string;
  let done: () => Promise<void>;
  beforeAll(async () => {
    const s = await openOneFillServer({ plan: 'trial' });
    ({ server, service, key } = s);
    done = s.close;
  });
  afterAll(() => done());

  const get = (path: string, withKey = true) => fetch(`${server.url.replace(/\/$/, '')}${path}`, { headers: withKey ? { 'x-api-key': key } : {} });

  it('is on every answer while backfilling, with the progress and ETA in /health; gone once live', async () => {
    service.source.setSource('simulated');
    service.source.set('backfilling', { progress: 0.25, etaS: 42, completeToMs: at('2025-09-01T00:00:00Z') });
    for (const [path, withKey, status] of [
      ['/v1/protocols', true, 200],
      ['/v1/protocols', true, 200],
      ['/v1/protocols', false, 401],
      ['/v1/nope', true, 404],
      ['/health', false, 200],
    ] as const) {
      const res = await get(path, withKey);
      expect(res.status, path).toBe(status);
      expect(res.headers.get(COMPLETE_TO_HEADER), `${path} ${status}`).toBe('2025-09-01T00:00:00.000Z');
      await res.arrayBuffer();
    }
    const health = await (await get('/health', false)).json();
    expect(health.source).toMatchObject({ kind: 'simulated', phase: 'backfilling', progress: 0.25, eta_s: 42, complete_to: '2025-09-01T00:00:00.000Z', reason: null });
    expect(health.status).toBe('ok');

    service.source.set('live', { progress: null, etaS: null, completeToMs: null });
    const res = await get('/v1/protocols');
    expect(res.headers.get(COMPLETE_TO_HEADER)).toBeNull();
    expect((await (await get('/health', false)).json()).source).toMatchObject({ phase: 'live', complete_to: null });
  });
});

describe('simulator backfill', () => {
  const { dir, cleanup } = tempDataDir();
  afterAll(cleanup);
  const OPTS = { seed: 5, scale: 1 };
  const START = Date.UTC(2025, 2, 12);
  const DAY = 86_400_000;

  it('reports its progress and completeness time, and a restart after a kill resumes from its last append', async () => {
    let service = await openService({ dataDir: dir });
    const sim = openSimulator(service, OPTS);
    const seen: (number | null)[] = [];
    const timer = setInterval(() => seen.push(service.source.get().completeToMs), 5);
    await simulateUntil(service, sim, OPTS, START + 4 * DAY, { rowsPerAppend: 2_000 });
    clearInterval(timer);
    const state = service.source.get();
    expect(state).toMatchObject({ phase: 'backfilling', progress: 1, completeToMs: START + 4 * DAY });
    expect(seen.filter((t) => t !== null && t < START + 4 * DAY).length).toBeGreaterThan(0);
    const seq = service.lastSeq();
    // killed here: no save after the backfill (start saves it only once the backfill is over)
    await service.close();

    service = await openService({ dataDir: dir });
    try {
      const resumed = openSimulator(service, OPTS);
      expect(resumed.time).toBe(simulatedTo(service));
      expect(resumed.time).toBe(START + 4 * DAY);
      const r = await simulateUntil(service, resumed, OPTS, START + 5 * DAY, { rowsPerAppend: 2_000 });
      expect(r.duplicates).toBe(0);
      expect(service.lastSeq()).toBe(seq + r.fills);
    } finally {
      await service.close();
    }
  }, 120_000);
});
