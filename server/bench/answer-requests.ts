/**
 * The requests of the answer comparison, derived from a server's OpenAPI document (itself made from
 * the route definitions, so a new route is covered without a change here): for every GET route
 * outside `/v1/stream/`, path parameters from the pool (addresses and position ids sampled from the
 * data, some unknown or malformed), each query parameter by its schema and name (enums, markets,
 * variants, addresses, time windows, limits, offsets, sizes), CSV on some, and bad input on some
 * (unknown parameter, value out of range or of the wrong shape) for the 4xx answers.
 */
import type { AnswerPool, ProtocolPool } from './answer-pool.ts';

/** One request: `target` is the path with its query string. */
export interface AnswerRequest {
  /** the route's OpenAPI path, e.g. `/v1/alpha/positions/{address}/{id}` */
  route: string;
  target: string;
  csv: boolean;
}

/** An OpenAPI parameter as the document gives it. */
interface Param {
  name: string;
  in: 'path' | 'query';
  schema?: { type?: string; enum?: string[]; minimum?: number; maximum?: number; pattern?: string };
}

interface OpenApiDoc {
  paths: Record<string, { get?: { parameters?: Param[] } }>;
}

/** The REST routes of the document: GET, not a stream (a WebSocket upgrade), with their parameters. */
export function restRoutesOf(doc: OpenApiDoc): { path: string; params: Param[] }[] {
  return Object.entries(doc.paths)
    .filter(([path, ops]) => ops.get && !path.startsWith('/v1/stream/'))
    .map(([path, ops]) => ({ path, params: ops.get?.parameters ?? [] }));
}

/** A seeded PRNG (mulberry32): the same seed gives the same requests. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const H = 3_600_000;
const WINDOWS_MS = [H, 6 * H, 24 * H, 24 * H, 3 * 24 * H, 7 * 24 * H, 30 * 24 * H, 365 * 24 * H];
const LIMITS = [1, 2, 5, 10, 25, 100, 500];
const OFFSETS = [0, 0, 0, 1, 3, 10, 50, 1000];
const SIZES = [0, 100, 1_000, 10_000, 100_000, 1_000_000];
/** A well-formed address that no simulated or real account has. */
const UNKNOWN_ADDRESS = '1111111111111111111111111111111111111111111';

/** Builds `count` requests (at least 2 per route) over `routes` from `pool`, deterministically from `seed`. */
export function answerRequests(routes: { path: string; params: Param[] }[], pool: AnswerPool, count: number, seed = 7): AnswerRequest[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T | undefined => (xs.length ? xs[Math.floor(rnd() * xs.length)] : undefined);
  const perRoute = Math.max(2, Math.ceil(count / Math.max(1, routes.length)));
  const out: AnswerRequest[] = [];
  for (const route of routes) {
    const protocol = /^\/v1\/([a-z]+)\//.exec(route.path)?.[1] ?? '';
    const p: ProtocolPool = pool[protocol] ?? Object.values(pool)[0] ?? { markets: [], variants: [], addresses: [], closed: [], open: [], firstMs: 0, lastMs: 0 };
    for (let i = 0; i < perRoute; i++) out.push(oneRequest(route, p, rnd, pick, i));
  }
  return out;
}

type Pick = <T>(xs: readonly T[]) => T | undefined;

function oneRequest(route: { path: string; params: Param[] }, p: ProtocolPool, rnd: () => number, pick: Pick, i: number): AnswerRequest {
  // the first request of a route is its plain form; then one in twelve carries one bad input
  const bad = i > 0 && rnd() < 1 / 12;
  const badKind = bad ? Math.floor(rnd() * 4) : -1;
  let path = route.path;
  const pathParams = route.params.filter((x) => x.in === 'path').map((x) => x.name);
  if (pathParams.includes('id')) {
    const r = rnd();
    const [address, id] = (r < 0.45 ? pick(p.closed) : r < 0.8 ? pick(p.open) : undefined) ?? [pick(p.addresses) ?? UNKNOWN_ADDRESS, 999_999_999];
    // another address's lifecycle, or an id no lifecycle has: 404s
    const other = r >= 0.8 && r < 0.9 ? (pick(p.closed)?.[1] ?? 1) : id;
    path = path.replace('{address}', badKind === 0 ? 'not-an-address' : address).replace('{id}', badKind === 1 ? 'x1' : String(other));
  } else if (pathParams.includes('address')) {
    const address = rnd() < 0.05 ? UNKNOWN_ADDRESS : (pick(p.addresses) ?? UNKNOWN_ADDRESS);
    path = path.replace('{address}', badKind === 0 ? 'not-an-address' : address);
  }
  const query = new URLSearchParams();
  const queryParams = route.params.filter((x) => x.in === 'query');
  // one window per request, ending anywhere from the first trade to two days after the last fill
  const end = p.firstMs + rnd() * (Math.max(H, p.lastMs - p.firstMs) + 2 * 24 * H);
  const window = { from: end - (pick(WINDOWS_MS) ?? H), to: end };
  for (const param of queryParams) {
    if (i === 0 || rnd() < 0.5) continue;
    const value = queryValue(param, p, window, rnd, pick);
    if (value !== undefined) query.set(param.name, value);
  }
  if (query.has('from') && query.has('to') && rnd() < 0.2) query.delete('to');
  if (badKind === 2 || (bad && queryParams.length === 0)) query.set('bogus', '1');
  if (badKind === 3 && queryParams.length > 0) {
    const param = pick(queryParams)!;
    query.set(param.name, badValue(param));
  }
  const search = query.toString();
  return { route: route.path, target: search ? `${path}?${search}` : path, csv: rnd() < 0.15 };
}

/** An ISO time (or a date alone) of epoch ms `t`. */
function isoOf(t: number, rnd: () => number): string {
  const iso = new Date(Math.max(0, t)).toISOString();
  const r = rnd();
  return r < 0.2 ? iso.slice(0, 10) : r < 0.6 ? `${iso.slice(0, 13)}:00:00Z` : iso;
}

/** A value for `param` drawn from the pool by its name, else by its schema; undefined: leave it out. */
function queryValue(param: Param, p: ProtocolPool, window: { from: number; to: number }, rnd: () => number, pick: Pick): string | undefined {
  const schema = param.schema ?? {};
  switch (param.name) {
    case 'market':
      return pick(p.markets);
    case 'market_variant':
      return pick(p.variants);
    case 'address':
      return pick(p.addresses);
    case 'from':
    case 'to':
      return isoOf(window[param.name], rnd);
    case 'limit':
      return String(pick(LIMITS));
    case 'offset':
      return String(pick(OFFSETS));
    case 'cursor':
      return undefined; // followed from the answers' next_cursor instead
    case 'search':
      return pick(p.addresses)?.slice(0, 4 + Math.floor(rnd() * 6));
    default:
      break;
  }
  if (schema.enum) return pick(schema.enum);
  if (param.name.endsWith('_usd')) return String(pick(SIZES));
  if (schema.type === 'integer' || schema.type === 'number') {
    const lo = schema.minimum ?? 0;
    const hi = Math.min(schema.maximum ?? 100, lo + 100);
    return String(Math.floor(lo + rnd() * (hi - lo + 1)));
  }
  return undefined;
}

/** A value `param` rejects: outside its enum or range, or not of its type. */
function badValue(param: Param): string {
  const schema = param.schema ?? {};
  if (schema.enum) return 'nope';
  if (param.name === 'limit') return String((schema.maximum ?? 500) + 1);
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum !== undefined ? String(schema.minimum - 1) : 'abc';
  if (param.name === 'from' || param.name === 'to') return 'yesterday';
  return '!!';
}
