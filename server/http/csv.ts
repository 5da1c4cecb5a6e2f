/**
 * CSV answers of the list and history endpoints: a request whose `Accept` prefers `text/csv` gets
 * the rows of `data` as RFC 4180 CSV (CRLF line ends; a field quoted when it holds a comma, quote,
 * CR or LF, quotes doubled), with a header row of the JSON's field names. Nulls are empty fields,
 * arrays (e.g. markets_traded) their JSON text. The parts of the JSON answer outside `data` travel as
 * headers: `x-next-cursor`, `x-pagination-limit` / `-offset` / `-total`, `x-interval`,
 * `x-window-from` / `-to`. Columns in the JSON rows' field order (the response schema's when no row). The answer is computed, validated, limited and charged exactly as its
 * JSON twin (the CSV is made from that body), so the two never disagree.
 */
import type { Body } from '../cache/json-body.ts';

export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

/** The q-value of `type` in an Accept header (0 when not listed); `*\/*` and `text/*` count for it. */
function qualityOf(accept: string, type: string): number {
  let best = 0;
  let exact = false;
  for (const part of accept.split(',')) {
    const [range, ...params] = part
      .trim()
      .toLowerCase()
      .split(';')
      .map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    const value = q ? Number(q.slice(2)) : 1;
    const quality = Number.isFinite(value) ? value : 0;
    if (range === type) {
      best = quality;
      exact = true;
    } else if (!exact && (range === '*/*' || range === `${type.split('/')[0]}/*`)) best = Math.max(best, quality);
  }
  return best;
}

/**
 * Whether an Accept header asks for CSV: text/csv listed with a q above JSON's, or equal to it and
 * listed before application/json (a client listing both at once, e.g. a reference page's "try it",
 * gets JSON unless it names CSV first).
 */
export function wantsCsv(accept: string | null | undefined): boolean {
  const lower = accept?.toLowerCase();
  if (!lower?.includes('text/csv')) return false;
  const csv = qualityOf(lower, 'text/csv');
  const json = qualityOf(lower, 'application/json');
  if (csv <= 0 || csv < json) return false;
  if (csv > json) return true;
  const jsonAt = lower.indexOf('application/json');
  return jsonAt < 0 || lower.indexOf('text/csv') < jsonAt;
}

/**
 * The field names of a list or history route's rows (from its response schema), or null for any
 * other route. Takes any object with the route's `response` (a RestRoute), so this module needs
 * nothing from the route definitions, which answer through it.
 */
export function csvColumns(route: { readonly response?: unknown }): string[] | null {
  const response = route.response as { entries?: Record<string, unknown> } | undefined;
  const data = response?.entries?.data as { type?: string; item?: { entries?: Record<string, unknown> } } | undefined;
  if (data?.type !== 'array' || !data.item?.entries) return null;
  return Object.keys(data.item.entries);
}

const QUOTE = /[",\r\n]/;

/** One CSV field of a JSON value. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return QUOTE.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The CSV of rows under a header row of `columns`. */
export function csvOf(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(field).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(row[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The CSV text and the envelope headers of a JSON answer's body. */
export function csvAnswer(columns: readonly string[], body: Body): { text: string; headers: Record<string, string> } {
  const parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as Record<string, unknown>;
  const headers: Record<string, string> = {};
  if ('next_cursor' in parsed) headers['x-next-cursor'] = (parsed.next_cursor as string | null) ?? '';
  const pagination = parsed.pagination as Record<string, number> | undefined;
  if (pagination) for (const k of ['limit', 'offset', 'total']) headers[`x-pagination-${k}`] = String(pagination[k]);
  if (typeof parsed.interval === 'string') {
    headers['x-interval'] = parsed.interval;
    headers['x-window-from'] = String(parsed.from);
    headers['x-window-to'] = String(parsed.to);
  }
  const rows = parsed.data as Record<string, unknown>[];
  // the JSON's own field order (the schema's is only needed for a header over no row)
  return { text: csvOf(rows[0] ? Object.keys(rows[0]) : columns, rows), headers };
}

/** The OpenAPI description of a route's CSV media type. */
export function csvMediaType(columns: readonly string[]): Record<string, unknown> {
  return {
    schema: { type: 'string', description: `RFC 4180 CSV with a header row: ${columns.join(', ')}.` },
  };
}
