/** Leaderboard: accounts ranked by any of the API's sort keys, with the protocol's account totals above. */
import { get, type Paged } from '../api.ts';
import { base, href, type ViewContext } from '../context.ts';
import { fill, h, panel, segmented, showFailure, stats, table } from '../dom.ts';
import { integer, leverage, percent, shortAddress, signedUsd, tone, usd } from '../format.ts';

/** The sort keys of `GET /v1/{protocol}/accounts/search`, with how the page names them. */
const SORTS = { net_pnl: 'Net PnL', volume: 'Volume', win_rate: 'Win rate', positions: 'Positions', current_notional: 'Open notional' } as const;
type Sort = keyof typeof SORTS;
const PAGE = 50;

interface Account {
  address: string;
  trades: number;
  win_rate: number;
  volume_usd: number;
  net_pnl_usd: number;
  positions: number;
  open_positions: number;
  open_notional_usd: number;
  avg_leverage: number;
  last_trade_at: string;
}

interface AccountsSummary {
  total_accounts: number;
  accounts_with_open_positions: number;
  total_positions_ever: number;
  total_volume_usd: number;
  total_profits_usd: number;
  total_losses_usd: number;
  avg_win_rate: number;
}

const state: { sort: Sort; order: 'desc' | 'asc'; offset: number; minTrades: number; active: boolean } = { sort: 'net_pnl', order: 'desc', offset: 0, minTrades: 0, active: false };

export async function renderLeaderboard(ctx: ViewContext): Promise<void> {
  const summary = panel('Accounts', null, true);
  const ranking = panel('Ranking', null, true);
  const controls = h('div', { class: 'toolbar' });
  ctx.root.append(h('div', { class: 'view-head' }, h('h1', {}, 'Leaderboard'), controls), summary.el, ranking.el);
  const reload = () => {
    if (ctx.alive()) void loadPage();
  };
  const drawControls = () => {
    const min = h('input', { type: 'number', min: 0, value: state.minTrades, 'aria-label': 'Minimum closed trades', class: 'small' });
    min.addEventListener('change', () => {
      state.minTrades = Math.max(0, Math.floor(Number(min.value) || 0));
      state.offset = 0;
      reload();
    });
    const active = h('input', { type: 'checkbox', checked: state.active });
    active.addEventListener('change', () => {
      state.active = active.checked;
      state.offset = 0;
      reload();
    });
    controls.replaceChildren(
      segmented('Sort by', Object.values(SORTS), SORTS[state.sort], (label) => {
        state.sort = (Object.keys(SORTS) as Sort[]).find((k) => SORTS[k] === label)!;
        state.offset = 0;
        drawControls();
        reload();
      }),
      segmented('Order', ['desc', 'asc'] as const, state.order, (o) => {
        state.order = o;
        state.offset = 0;
        drawControls();
        reload();
      }),
      h('label', { class: 'control' }, h('span', {}, 'Min trades'), min),
      h('label', { class: 'control check' }, active, h('span', {}, 'with open positions')),
    );
  };
  drawControls();

  get<{ data: AccountsSummary }>(`${base(ctx.protocol)}/accounts/stats`).then(
    ({ data: s }) => {
      if (!ctx.alive()) return;
      fill(
        summary.body,
        stats([
          ['Accounts', integer(s.total_accounts)],
          ['With open positions', integer(s.accounts_with_open_positions)],
          ['Positions ever', integer(s.total_positions_ever)],
          ['Volume', usd(s.total_volume_usd)],
          ['Profits', usd(s.total_profits_usd), 'up'],
          ['Losses', usd(s.total_losses_usd), 'down'],
          ['Average win rate', percent(s.avg_win_rate)],
        ]),
      );
    },
    (err) => ctx.alive() && showFailure(summary.body, err, 'Account totals'),
  );

  const loadPage = async () => {
    try {
      const page = await get<Paged<Account>>(`${base(ctx.protocol)}/accounts/search`, {
        sort_by: state.sort,
        order: state.order,
        offset: state.offset,
        limit: PAGE,
        min_trades: state.minTrades || undefined,
        has_active_positions: state.active || undefined,
      });
      if (!ctx.alive()) return;
      const { offset, total } = page.pagination;
      fill(
        ranking.body,
        table<Account>(
          [
            { title: '#', cell: (r) => offset + page.data.indexOf(r) + 1, numeric: true },
            { title: 'Account', cell: (r) => h('span', { class: 'mono', title: r.address }, shortAddress(r.address)) },
            { title: 'Net PnL', cell: (r) => signedUsd(r.net_pnl_usd), numeric: true, tone: (r) => tone(r.net_pnl_usd) },
            { title: 'Volume', cell: (r) => usd(r.volume_usd), numeric: true },
            { title: 'Win rate', cell: (r) => percent(r.win_rate), numeric: true },
            { title: 'Trades', cell: (r) => integer(r.trades), numeric: true },
            { title: 'Positions', cell: (r) => integer(r.positions), numeric: true },
            { title: 'Open', cell: (r) => integer(r.open_positions), numeric: true },
            { title: 'Open notional', cell: (r) => usd(r.open_notional_usd), numeric: true },
            { title: 'Avg leverage', cell: (r) => leverage(r.avg_leverage), numeric: true },
          ],
          page.data,
          (r) => {
            location.hash = href(ctx.protocol, 'account', r.address);
          },
          'No account matches.',
        ),
        pager(offset, page.data.length, total, (next) => {
          state.offset = next;
          reload();
        }),
      );
    } catch (err) {
      if (ctx.alive()) showFailure(ranking.body, err, 'The leaderboard');
    }
  };
  await loadPage();
}

/** "1-50 of 1,234" with previous / next buttons. */
export function pager(offset: number, shown: number, total: number, go: (offset: number) => void): HTMLElement {
  const prev = h('button', { type: 'button', disabled: offset === 0 }, '← Previous');
  const next = h('button', { type: 'button', disabled: offset + shown >= total }, 'Next →');
  prev.addEventListener('click', () => go(Math.max(0, offset - PAGE)));
  next.addEventListener('click', () => go(offset + PAGE));
  return h('div', { class: 'pager' }, prev, h('span', {}, shown === 0 ? `0 of ${integer(total)}` : `${integer(offset + 1)}–${integer(offset + shown)} of ${integer(total)}`), next);
}
