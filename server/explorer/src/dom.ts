/** Small DOM helpers: elements, tables, panels and controls, with text always set as text. */
import { ApiFailure, describeFailure } from './api.ts';

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((ev: Event) => void)>;

/** `h('a', { href: '#/' , class: 'x', onclick: fn }, 'text', child)`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: HTMLElement, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : String(child));
  }
}

/** A column of a table: its header, how a row renders in it, and whether it is numeric (right-aligned). */
export interface Column<T> {
  title: string;
  cell: (row: T) => Child;
  numeric?: boolean;
  /** a CSS class for the cell (e.g. from the value's sign) */
  tone?: (row: T) => string;
}

/** A table of `rows`; `onRow` makes rows clickable (and keyboard-reachable). */
export function table<T>(columns: Column<T>[], rows: T[], onRow?: (row: T) => void, empty = 'Nothing to show.'): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty' }, empty);
  const head = h('tr', {}, ...columns.map((c) => h('th', { class: c.numeric ? 'num' : undefined }, c.title)));
  const body = h('tbody');
  for (const row of rows) {
    const tr = h(
      'tr',
      onRow ? { class: 'link', tabindex: 0 } : {},
      ...columns.map((c) => h('td', { class: [c.numeric ? 'num' : '', c.tone?.(row) ?? ''].join(' ').trim() || undefined }, c.cell(row))),
    );
    if (onRow) {
      tr.addEventListener('click', () => onRow(row));
      tr.addEventListener('keydown', (ev) => {
        if ((ev as KeyboardEvent).key === 'Enter') onRow(row);
      });
    }
    body.append(tr);
  }
  return h('div', { class: 'table-wrap' }, h('table', {}, h('thead', {}, head), body));
}

/** A titled box whose body is filled later (see {@link fill}, {@link showFailure}). */
export function panel(title: string, extra: Child = null, wide = false): { el: HTMLElement; body: HTMLElement } {
  const body = h('div', { class: 'panel-body' }, h('p', { class: 'loading' }, 'Loading…'));
  const el = h('section', { class: wide ? 'panel wide' : 'panel' }, h('div', { class: 'panel-head' }, h('h2', {}, title), extra), body);
  return { el, body };
}

/** Replaces `body`'s content. */
export function fill(body: HTMLElement, ...children: Child[]): void {
  body.replaceChildren();
  append(body, children);
}

/**
 * Shows a failed request in `body`: a plain note when the endpoint does not exist on this server
 * (a 404 from the router), else the error as the API said it (401, 403, 429, 400 …).
 */
export function showFailure(body: HTMLElement, err: unknown, what: string): void {
  if (err instanceof ApiFailure && err.notAvailable) {
    fill(body, h('p', { class: 'note' }, `${what}: not available on this server yet.`));
    return;
  }
  if (err instanceof ApiFailure && err.code === 'no_key') {
    fill(body, h('p', { class: 'note' }, err.message));
    return;
  }
  if (!(err instanceof ApiFailure)) console.warn(err);
  fill(body, h('p', { class: `error status-${err instanceof ApiFailure ? err.status : 0}`, role: 'alert' }, describeFailure(err)));
}

/** A row of figure cards. */
export function stats(items: [label: string, value: string, tone?: string][]): HTMLElement {
  return h(
    'div',
    { class: 'stats' },
    ...items.map(([label, value, tone]) => h('div', { class: 'stat' }, h('span', { class: 'label' }, label), h('span', { class: `value ${tone ?? ''}`.trim() }, value))),
  );
}

/** Buttons of which one is chosen; `onPick` runs with the new value. */
export function segmented<V extends string>(label: string, options: readonly V[], value: V, onPick: (v: V) => void, disabled: (v: V) => boolean = () => false): HTMLElement {
  const group = h('div', { class: 'segmented', role: 'group', 'aria-label': label });
  for (const option of options) {
    const b = h('button', { type: 'button', class: option === value ? 'on' : undefined, disabled: disabled(option), 'aria-pressed': String(option === value) }, option);
    b.addEventListener('click', () => onPick(option));
    group.append(b);
  }
  // a <div>, not a <label>: a label would lend its whole text to each button's accessible name
  return h('div', { class: 'control' }, h('span', {}, label), group);
}

/** A labelled `<select>`. */
export function select(label: string, options: readonly { value: string; text: string }[], value: string, onPick: (v: string) => void): HTMLElement {
  const el = h('select', { 'aria-label': label }, ...options.map((o) => h('option', { value: o.value, selected: o.value === value }, o.text)));
  el.addEventListener('change', () => onPick(el.value));
  return h('label', { class: 'control' }, h('span', {}, label), el);
}

/** A link inside the page. */
export function link(href: string, text: string, cls?: string): HTMLAnchorElement {
  return h('a', { href, class: cls }, text);
}
