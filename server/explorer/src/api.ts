/**
 * The page's one way to the API: same-origin requests with the user's key in `x-api-key` (the key
 * lives in this browser's localStorage, never in a URL). A failed answer becomes an
 * {@link ApiFailure} carrying the status and the API's own message, for the views to show as is.
 */

const KEY_STORAGE = 'perps.explorer.apiKey';

export function storedKey(): string | null {
  return localStorage.getItem(KEY_STORAGE);
}

export function storeKey(key: string | null): void {
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
}

/** A refused request: HTTP status (0: the service could not be reached), the API's code and message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** The endpoint does not exist on this server (yet): views show a note rather than an error. */
  get notAvailable(): boolean {
    return this.status === 404 && this.code === 'not_found' && this.message.startsWith('No endpoint matches');
  }
}

/** Listeners told of every refused key (401), so the page can point at the key box. */
const unauthorizedListeners = new Set<(failure: ApiFailure) => void>();
export function onUnauthorized(listener: (failure: ApiFailure) => void): void {
  unauthorizedListeners.add(listener);
}

/** A request to the API; the parsed JSON body of a 2xx answer, else throws {@link ApiFailure}. */
export async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const key = storedKey();
  if (!key) throw new ApiFailure(401, 'no_key', 'Paste an API key in the box at the top right to load data.');
  let res: Response;
  try {
    res = await fetch(path, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), 'x-api-key': key } });
  } catch {
    throw new ApiFailure(0, 'unreachable', 'The service could not be reached. Is it running?');
  }
  if (res.ok) return (await res.json()) as T;
  let code = 'error';
  let message = `The service answered ${res.status}.`;
  try {
    const body = (await res.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not our JSON (a proxy's page): the status says it
  }
  const retry = res.headers.get('retry-after');
  const failure = new ApiFailure(res.status, code, message, retry === null ? null : Number(retry));
  if (res.status === 401) for (const l of unauthorizedListeners) l(failure);
  throw failure;
}

/** GET `path` with `query` (undefined and empty values left out). */
export function get<T>(path: string, query: Record<string, string | number | boolean | undefined | null> = {}): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const search = params.toString();
  return request<T>(search ? `${path}?${search}` : path);
}

/** One line for a failure, as a user should read it. */
export function describeFailure(err: unknown): string {
  if (!(err instanceof ApiFailure)) return `Something went wrong in the page: ${(err as Error)?.message ?? String(err)}`;
  switch (err.status) {
    case 0:
      return err.message;
    case 401:
      return err.code === 'no_key' ? err.message : `Your API key was refused (401): ${err.message}`;
    case 403:
      return `Your plan does not include this (403): ${err.message}`;
    // the wait, from Retry-After, unless the API's message says it already
    case 429:
      return `Too many requests (429): ${err.message}${err.retryAfter !== null && !/retry/i.test(err.message) ? ` Try again in ${err.retryAfter} s.` : ''}`;
    default:
      return `${err.status}: ${err.message}`;
  }
}

/** Envelope of the history endpoints. */
export interface History<T> {
  interval: string;
  from: string;
  to: string;
  data: T[];
}

export interface Paged<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}
