/**
 * Live tape: fills and liquidations as the stream sends them. The socket is opened with a
 * single-use ticket (POST /v1/stream/tickets), so the key never travels in a URL; a key whose
 * plan lacks the stream gets the API's 403 message.
 */
import { get, request } from '../api.ts';
import { href, type ViewContext } from '../context.ts';
import { fill, h, panel, select, showFailure } from '../dom.ts';
import { price, shortAddress, signedUsd, time, usd } from '../format.ts';
import { marketRows, type Fill } from './shared.ts';

/** Rows kept on screen; older ones scroll away. */
const KEEP = 200;

interface Ticket {
  ticket: string;
  expires_at: string;
  protocol: string;
}

export async function renderTape(ctx: ViewContext): Promise<void> {
  const market = ctx.args[0] ?? '';
  const status = h('span', { class: 'status' }, 'Connecting…');
  const head = h('div', { class: 'view-head' }, h('h1', {}, 'Live tape'));
  const p = panel(`${ctx.protocol} fills${market ? ` · ${market}` : ''}`, status, true);
  ctx.root.append(head, p.el);
  marketRows(ctx.protocol).then(
    (rows) => {
      if (!ctx.alive()) return;
      const markets = [...new Set(rows.map((r) => r.market))].sort();
      head.append(
        h(
          'div',
          { class: 'toolbar' },
          select('Market', [{ value: '', text: 'All markets' }, ...markets.map((m) => ({ value: m, text: m }))], market, (m) => {
            location.hash = m ? href(ctx.protocol, 'tape', m) : href(ctx.protocol, 'tape');
          }),
        ),
      );
    },
    () => undefined,
  );

  let ticket: Ticket;
  try {
    ticket = (await request<{ data: Ticket }>('/v1/stream/tickets', { method: 'POST' })).data;
  } catch (err) {
    if (!ctx.alive()) return;
    status.textContent = 'Not connected';
    showFailure(p.body, err, 'The live stream');
    return;
  }
  if (!ctx.alive()) return;

  const body = h('tbody');
  const count = { fills: 0, liquidations: 0 };
  fill(
    p.body,
    h('p', { class: 'note waiting' }, 'Waiting for the next fill…'),
    h(
      'div',
      { class: 'table-wrap tape' },
      h(
        'table',
        {},
        h(
          'thead',
          {},
          h('tr', {}, ...['Time (UTC)', 'Market', 'Side', 'Type', 'Size change', 'Size after', 'Price', 'Fee', 'Account'].map((t, i) => h('th', { class: i >= 4 && i <= 7 ? 'num' : undefined }, t))),
        ),
        body,
      ),
    ),
  );

  // the latest fills over REST first, where this server has that endpoint, so the tape starts with context
  const shown = new Set<number>();
  const add = (f: Fill, live: boolean) => {
    if (f.seq !== undefined) {
      if (shown.has(f.seq)) return;
      shown.add(f.seq);
    }
    p.body.querySelector('.waiting')?.remove();
    const tr = row(ctx, f, live);
    if (live) body.prepend(tr);
    else body.append(tr);
    while (body.children.length > KEEP) body.lastElementChild!.remove();
  };
  get<{ data: Fill[] }>(`/v1/${ctx.protocol}/fills`, { market: market || undefined, limit: 50 }).then(
    ({ data }) => {
      if (ctx.alive()) for (const f of data) add(f, false);
    },
    () => undefined,
  );

  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = market ? `?market=${encodeURIComponent(market)}` : '';
  const ws = new WebSocket(`${scheme}://${location.host}/v1/stream/${ctx.protocol}/fills${query}`, [ticket.protocol, `ticket.${ticket.ticket}`]);
  ctx.onLeave(() => ws.close(1000, 'view closed'));
  ws.addEventListener('open', () => {
    status.textContent = 'Live';
    status.className = 'status live';
  });
  ws.addEventListener('message', (msg) => {
    const frame = JSON.parse(String(msg.data)) as { data?: Fill; error?: { code: string; message: string } };
    if (frame.error) {
      status.textContent = 'Closed';
      status.className = 'status';
      p.body.prepend(h('p', { class: 'error', role: 'alert' }, `The stream refused this connection (${frame.error.code}): ${frame.error.message}`));
      return;
    }
    if (!frame.data) return;
    count.fills += 1;
    if (frame.data.type === 'liquidation') count.liquidations += 1;
    add(frame.data, true);
    status.textContent = `Live · ${plural(count.fills, 'fill')}, ${plural(count.liquidations, 'liquidation')} since opened`;
  });
  ws.addEventListener('close', (ev) => {
    if (!ctx.alive()) return;
    if (status.className.includes('live')) {
      status.className = 'status';
      status.textContent = `Disconnected (${ev.code})`;
      p.body.prepend(
        h(
          'p',
          { class: 'note' },
          h('span', {}, 'The stream closed. '),
          h(
            'a',
            {
              href: location.hash,
              onclick: (e: Event) => {
                e.preventDefault();
                window.dispatchEvent(new HashChangeEvent('hashchange'));
              },
            },
            'Reconnect',
          ),
        ),
      );
    } else if (!p.body.querySelector('.error')) {
      status.textContent = 'Not connected';
      p.body.prepend(h('p', { class: 'error', role: 'alert' }, 'The stream could not be opened.'));
    }
  });
}

function row(ctx: ViewContext, f: Fill, live: boolean): HTMLElement {
  const liquidation = f.type === 'liquidation';
  const account = f.address ? h('a', { href: href(ctx.protocol, 'account', f.address), title: f.address }, shortAddress(f.address)) : '–';
  return h(
    'tr',
    { class: [liquidation ? 'liquidation' : '', live ? 'fresh' : ''].join(' ').trim() || undefined },
    h('td', {}, time(f.time)),
    h('td', {}, f.market ?? '–'),
    h('td', { class: f.side === 'long' ? 'up' : 'down' }, f.side ?? '–'),
    h('td', {}, h('span', { class: `badge ${f.type}` }, f.type)),
    h('td', { class: `num ${f.size_delta_usd > 0 ? 'up' : f.size_delta_usd < 0 ? 'down' : ''}` }, signedUsd(f.size_delta_usd)),
    h('td', { class: 'num' }, usd(f.position_size_usd)),
    h('td', { class: 'num' }, price(f.price)),
    h('td', { class: 'num' }, usd(f.fee_total_usd ?? f.fee_usd)),
    h('td', {}, account),
  );
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
