/**
 * The one-line text summary of a tool result, written from the REST body the tool returns as
 * `structuredContent`. It states what a model could otherwise miss: how many rows came back, that
 * a page was truncated and how to get the next one (offset or cursor), and that the plan clamped
 * the window. REST reports a clamp only through the echoed `from` of a history envelope (later than
 * the `from` asked for, or than the interval's default start); the summary says it in words.
 */
import { DEFAULT_SPAN_MS, depthDays, type HistoryInterval } from '../read/window.ts';
import { parseTimestamp } from '../http/params.ts';
import type { PlanName } from '../keys/plans.ts';
import { isoFromMs } from '../db/values.ts';
import type { RestTool } from './catalog.ts';
import { DAY_MS } from '../lib/time.ts';

type Body = Record<string, unknown>;

/** "the trial plan keeps 7 days" */
const depthWords = (plan: PlanName, days: number): string => `the ${plan} plan keeps ${days} days`;

/** What a summary needs besides the body: the query arguments as sent, the plan and the clock. */
export interface SummaryContext {
  query: Readonly<Record<string, string>>;
  plan: PlanName;
  now: number;
}

const rows = (body: Body): unknown[] => (Array.isArray(body.data) ? body.data : []);

function historySummary(tool: RestTool, body: Body, ctx: SummaryContext): string {
  const n = rows(body).length;
  const interval = String(body.interval) as HistoryInterval;
  const from = Date.parse(String(body.from));
  const to = Date.parse(String(body.to));
  let text = `${tool.title}: ${n} ${tool.noun} of ${interval} over [${body.from}, ${body.to}), oldest first.`;
  const asked = ctx.query.from !== undefined ? parseTimestamp(ctx.query.from) : to - (DEFAULT_SPAN_MS[interval] ?? 0);
  if (asked !== undefined && asked < from && tool.depth) {
    const days = depthDays(ctx.plan, tool.depth);
    const why = days === null ? 'by the plan' : `: the ${ctx.plan} plan covers ${days} days of this history`;
    text += ` Window clamped: from ${isoFromMs(asked)} was raised to ${body.from}${why}.`;
  }
  text += ' For another window call again with from/to (at most 10,000 buckets), or a coarser interval.';
  return text;
}

function pagedSummary(tool: RestTool, body: Body, ctx: SummaryContext): string {
  const n = rows(body).length;
  const page = (body.pagination ?? {}) as { offset?: number; limit?: number; total?: number };
  const offset = page.offset ?? 0;
  const total = page.total ?? n;
  let text = n === 0 ? `${tool.title}: no ${tool.noun} at offset ${offset} (${total} match in all).` : `${tool.title}: ${tool.noun} ${offset + 1}-${offset + n} of ${total}.`;
  if (offset + n < total && n > 0) {
    text += ` Page truncated: call again with offset=${offset + n} for the next ${Math.min(page.limit ?? n, total - offset - n)}.`;
  }
  if (tool.depth) {
    const days = depthDays(ctx.plan, tool.depth);
    if (days !== null) {
      text += ` Lifecycles opened before ${isoFromMs(ctx.now - days * DAY_MS)} are omitted (${depthWords(ctx.plan, days)}).`;
    }
  }
  return text;
}

function cursorSummary(tool: RestTool, body: Body, ctx: SummaryContext): string {
  const n = rows(body).length;
  const next = body.next_cursor;
  let text = `${tool.title}: ${n} ${tool.noun}, newest first.`;
  text += typeof next === 'string' ? ` Page truncated: call again with cursor="${next}" for older ones.` : ' Last page.';
  if (tool.depth) {
    const days = depthDays(ctx.plan, tool.depth);
    const floor = days === null ? null : ctx.now - days * DAY_MS;
    const asked = ctx.query.from !== undefined ? parseTimestamp(ctx.query.from) : undefined;
    if (floor !== null && days !== null && (asked === undefined || asked < floor)) {
      text += ` The search reaches back to ${isoFromMs(floor)} at most (${depthWords(ctx.plan, days)}).`;
    }
  }
  return text;
}

function listSummary(tool: RestTool, body: Body): string {
  let text = `${tool.title}: ${rows(body).length} ${tool.noun}.`;
  if (Array.isArray(body.markets)) text += ` Grouped market symbols: ${body.markets.join(', ') || 'none'}.`;
  return text;
}

function objectSummary(tool: RestTool, body: Body): string {
  const data = (body.data ?? {}) as Record<string, unknown>;
  const said = ['address', 'position_id', 'market', 'status'].filter((k) => data[k] !== undefined && data[k] !== null).map((k) => `${k} ${String(data[k])}`);
  return `${tool.title}${said.length > 0 ? ` (${said.join(', ')})` : ''}.`;
}

/** Rows a preview shows. */
const PREVIEW_ROWS = 3;
/** Fields of a row a preview shows (the first ones: identity and the main figures). */
const PREVIEW_FIELDS = 12;
/** Characters a preview value keeps. */
const PREVIEW_VALUE = 48;

const short = (value: unknown): string => {
  const text = value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > PREVIEW_VALUE ? `${text.slice(0, PREVIEW_VALUE - 1)}…` : text;
};

/**
 * A compact preview of a REST body for the result's text: the first rows (or the object) as
 * `field=value` pairs, long values cut; the full data is the result's structuredContent.
 */
export function preview(body: Body): string {
  const data = body.data;
  if (Array.isArray(data)) {
    if (data.length === 0) return 'No rows.';
    const lines = data.slice(0, PREVIEW_ROWS).map(
      (row, i) =>
        `${i + 1}. ${Object.entries(row as Record<string, unknown>)
          .slice(0, PREVIEW_FIELDS)
          .map(([k, v]) => `${k}=${short(v)}`)
          .join(' ')}`,
    );
    const more = data.length > PREVIEW_ROWS ? `\n… ${data.length - PREVIEW_ROWS} more rows in structuredContent.` : '';
    return `First rows:\n${lines.join('\n')}${more}`;
  }
  if (data && typeof data === 'object')
    return Object.entries(data as Record<string, unknown>)
      .map(([k, v]) => `${k}=${short(v)}`)
      .join(' ');
  return 'No data.';
}

/** The one-line summary of a successful tool call whose REST body is `body`. */
export function summarize(tool: RestTool, body: Body, ctx: SummaryContext): string {
  switch (tool.shape) {
    case 'history':
      return historySummary(tool, body, ctx);
    case 'paged':
      return pagedSummary(tool, body, ctx);
    case 'cursor':
      return cursorSummary(tool, body, ctx);
    case 'list':
      return listSummary(tool, body);
    case 'object':
      return objectSummary(tool, body);
  }
}
