/**
 * Sends the same requests to two servers and compares the answers byte for byte: status, body bytes
 * (after content decoding) and every header except those that differ per request by nature
 * ({@link PER_REQUEST_HEADERS}). A `next_cursor` (JSON body or `x-next-cursor` header) in an answer
 * is followed with the next page, a few pages deep. Tallies per route.
 *
 * An answer whose window defaults to "now" names the time of the request (`to`, `x-window-to`), which
 * two processes read a few milliseconds apart: such a pair is counted apart, as equal but for the
 * clock, when the only differences are ISO times with milliseconds all shifted by the same amount,
 * under {@link CLOCK_SKEW_MS} (see {@link clockOnly}). A pair that differs otherwise is asked
 * again once: an answer over a trailing window (the last 24 hours) changes when a fill leaves it
 * between the two servers' readings of the clock, and the second pair then agrees; counted apart too.
 * What still differs is a difference.
 */
import type { AnswerRequest } from './answer-requests.ts';

/**
 * Headers left out of the comparison: they differ between two identical answers by nature (the
 * clock, a request id, the connection, the caller's remaining rate and credits).
 */
export const PER_REQUEST_HEADERS: readonly string[] = [
  'date',
  'x-request-id',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'x-credits-remaining',
];

/** At most this far apart, two readings of "now" by the two servers for one request pair. */
export const CLOCK_SKEW_MS = 2_000;

const ISO_TIME = /(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z)/;

/** A time with a millisecond part other than .000: a reading of the clock (the data's times are whole seconds). */
const clockReading = (iso: string): boolean => /\.\d*[1-9]\d*Z$/.test(iso);

/**
 * Whether `x` and `y` differ only in ISO times, every differing pair shifted by one same amount of
 * at most {@link CLOCK_SKEW_MS} and at least one of the two a reading of the clock, and in nothing else.
 */
export function clockOnly(x: string, y: string): boolean {
  const [px, py] = [x.split(ISO_TIME), y.split(ISO_TIME)];
  if (px.length !== py.length) return false;
  let shift: number | null = null;
  for (let i = 0; i < px.length; i++) {
    if (px[i] === py[i]) continue;
    if (i % 2 === 0) return false; // text between the times
    const d = Date.parse(py[i]!) - Date.parse(px[i]!);
    if (!Number.isFinite(d) || Math.abs(d) > CLOCK_SKEW_MS || (shift !== null && d !== shift)) return false;
    if (!clockReading(px[i]!) && !clockReading(py[i]!)) return false;
    shift = d;
  }
  return true;
}

/** One side of the comparison: a server and the key it knows. */
export interface Side {
  url: string;
  key: string;
}

/** One answer as compared. */
interface Answer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** A difference found, with what differs. */
export interface Difference {
  target: string;
  csv: boolean;
  what: string;
}

/** Per route: requests sent (each to both sides), byte-equal answers, the differences. */
export interface RouteTally {
  requests: number;
  equal: number;
  /** equal but for the time of the request they name ({@link clockOnly}) */
  clock: number;
  /** different, then equal (or equal but for the clock) when asked again */
  retried: number;
  differences: Difference[];
  /** answers by status class, e.g. { '2xx': 40, '4xx': 6 } (side A's) */
  statuses: Record<string, number>;
}

export type Tallies = Map<string, RouteTally>;

/** Cursor pages followed after a first page, at most. */
const CURSOR_DEPTH = 3;

async function answer(side: Side, target: string, csv: boolean): Promise<Answer> {
  const headers: Record<string, string> = { 'x-api-key': side.key };
  if (csv) headers.accept = 'text/csv';
  const res = await fetch(side.url + target, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const kept = new Map<string, string>();
  res.headers.forEach((value, name) => {
    if (!PER_REQUEST_HEADERS.includes(name)) kept.set(name, value);
  });
  return { status: res.status, headers: kept, body };
}

/** Whether `a` and `b` differ only by the clock they read ({@link clockOnly}), headers and body alike. */
function sameButClock(a: Answer, b: Answer): boolean {
  if (a.status !== b.status || a.headers.size !== b.headers.size) return false;
  for (const [name, value] of a.headers) {
    const other = b.headers.get(name);
    // content-length differs only as the body does, checked below
    if (other === undefined || (other !== value && name !== 'content-length' && !clockOnly(value, other))) return false;
  }
  return clockOnly(a.body.toString('utf8'), b.body.toString('utf8'));
}

/** What differs between `a` and `b` (null: byte-equal, headers included). */
function differenceOf(a: Answer, b: Answer): string | null {
  if (a.status !== b.status) return `status ${a.status} vs ${b.status}`;
  const names = new Set([...a.headers.keys(), ...b.headers.keys()]);
  for (const name of [...names].sort()) {
    if (a.headers.get(name) !== b.headers.get(name)) return `header ${name}: ${a.headers.get(name) ?? '(none)'} vs ${b.headers.get(name) ?? '(none)'}`;
  }
  if (!a.body.equals(b.body)) {
    let at = 0;
    while (at < a.body.length && a.body[at] === b.body[at]) at++;
    const near = (x: Buffer) => JSON.stringify(x.subarray(Math.max(0, at - 40), at + 40).toString('utf8'));
    return `body (${a.body.length} vs ${b.body.length} bytes) from byte ${at}: ${near(a.body)} vs ${near(b.body)}`;
  }
  return null;
}

/** The next page's cursor an answer names, if any. */
function nextCursor(a: Answer): string | null {
  const header = a.headers.get('x-next-cursor');
  if (header) return header;
  if (a.status !== 200 || !a.headers.get('content-type')?.includes('json')) return null;
  try {
    const body = JSON.parse(a.body.toString('utf8')) as { next_cursor?: unknown; pagination?: { next_cursor?: unknown } };
    const cursor = body.next_cursor ?? body.pagination?.next_cursor;
    return typeof cursor === 'string' ? cursor : null;
  } catch {
    return null;
  }
}

function withCursor(target: string, cursor: string, alone: boolean): string {
  const [path, search = ''] = target.split('?') as [string, string?];
  const query = new URLSearchParams(alone ? '' : search);
  if (alone) for (const [k, v] of new URLSearchParams(search)) if (k === 'limit') query.set(k, v);
  query.set('cursor', cursor);
  return `${path}?${query.toString()}`;
}

function tallyOf(tallies: Tallies, route: string): RouteTally {
  let t = tallies.get(route);
  if (!t) tallies.set(route, (t = { requests: 0, equal: 0, clock: 0, retried: 0, differences: [], statuses: {} }));
  return t;
}

/**
 * Sends each request to `a` and `b` at once (so both read the clock within milliseconds), compares, and follows
 * cursors; `concurrency` requests in flight. Adds to `tallies` (a new map by default) and returns it.
 */
export async function compareAnswers(
  a: Side,
  b: Side,
  requests: readonly AnswerRequest[],
  opts: { concurrency?: number; tallies?: Tallies; onProgress?: (done: number, total: number) => void } = {},
): Promise<Tallies> {
  const tallies = opts.tallies ?? new Map();
  let next = 0;
  let done = 0;
  const one = async (request: AnswerRequest, depth: number): Promise<void> => {
    const [x, y] = await Promise.all([answer(a, request.target, request.csv), answer(b, request.target, request.csv)]);
    const tally = tallyOf(tallies, request.route);
    tally.requests += 1;
    const status = `${Math.floor(x.status / 100)}xx`;
    tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
    const what = differenceOf(x, y);
    if (what && !sameButClock(x, y)) {
      const again = await Promise.all([answer(a, request.target, request.csv), answer(b, request.target, request.csv)]);
      if (differenceOf(...again) && !sameButClock(...again)) tally.differences.push({ target: request.target, csv: request.csv, what });
      else tally.retried += 1;
      return;
    }
    if (what) tally.clock += 1;
    else tally.equal += 1;
    const cursor = depth < CURSOR_DEPTH ? nextCursor(x) : null;
    if (cursor) await one({ ...request, target: withCursor(request.target, cursor, depth % 2 === 1) }, depth + 1);
  };
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const request = requests[next++]!;
      await one(request, 0);
      opts.onProgress?.(++done, requests.length);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 2 }, worker));
  return tallies;
}

/** The per-route table and the first few differences of each route, as text lines. */
export function formatTallies(title: string, tallies: Tallies, shown = 3): string[] {
  const lines = [title, '| route | requests | byte-equal | equal but for the clock | equal on retry | differences | statuses (A) |', '|---|---|---|---|---|---|---|'];
  const all = { requests: 0, equal: 0, clock: 0, retried: 0, differences: 0 };
  for (const [route, t] of [...tallies].sort(([x], [y]) => x.localeCompare(y))) {
    all.requests += t.requests;
    all.equal += t.equal;
    all.clock += t.clock;
    all.retried += t.retried;
    all.differences += t.differences.length;
    const statuses = Object.entries(t.statuses)
      .sort()
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    lines.push(`| \`${route}\` | ${t.requests} | ${t.equal} | ${t.clock} | ${t.retried} | ${t.differences.length} | ${statuses} |`);
  }
  lines.push(`| all ${tallies.size} routes | ${all.requests} | ${all.equal} | ${all.clock} | ${all.retried} | ${all.differences} | |`);
  for (const [route, t] of tallies) {
    for (const d of t.differences.slice(0, shown)) lines.push(`DIFFERENT ${route}: GET ${d.target}${d.csv ? ' (text/csv)' : ''}: ${d.what}`);
  }
  return lines;
}

/** Differences over all routes. */
export function differenceCount(tallies: Tallies): number {
  return [...tallies.values()].reduce((n, t) => n + t.differences.length, 0);
}
