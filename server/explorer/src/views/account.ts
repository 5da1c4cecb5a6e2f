/** Account view: the account's figures, its open positions with how close each is to liquidation, and its closed positions. */
import { get, type Paged } from '../api.ts';
import { base, href, type ViewContext } from '../context.ts';
import { fill, h, panel, showFailure, stats, table } from '../dom.ts';
import { hours, integer, leverage, percent, price, signedUsd, time, tone, usd } from '../format.ts';
import { pager } from './leaderboard.ts';

interface Account {
  address: string;
  trades: number;
  wins: number;
  losses: number;
  win_rate: number;
  volume_usd: number;
  net_pnl_usd: number;
  positions: number;
  open_positions: number;
  first_trade_at: string;
  last_trade_at: string;
  realized_pnl_usd: number;
  fees_usd: number;
  funding_fees_usd: number;
  funding_earned_usd: number;
  borrowing_fees_usd: number;
  liquidation_fees_usd: number;
  avg_leverage: number;
  max_leverage: number;
  avg_position_size_usd: number;
  max_position_size_usd: number;
  avg_position_duration_hours: number;
  open_notional_usd: number;
  markets_traded: string[];
}

export interface OpenPosition {
  position_id: number;
  market: string;
  market_variant: string | null;
  side: 'long' | 'short';
  current_size_usd: number | null;
  current_collateral_usd: number | null;
  entry_price: number;
  mark_price: number | null;
  liquidation_price: number | null;
  unrealized_pnl_usd: number | null;
  leverage: number;
  opened_at: string;
}

interface ClosedPosition {
  position_id: number;
  market: string;
  side: 'long' | 'short';
  status: string;
  opened_at: string;
  closed_at: string | null;
  max_size_usd: number;
  entry_price: number;
  exit_price: number | null;
  max_leverage: number;
  net_pnl_usd: number;
  fill_count: number;
}

/** |mark − liquidation| / mark: the share the price may move before the position is liquidated. */
export function proximity(p: { mark_price: number | null; liquidation_price: number | null }): number | null {
  return p.mark_price && p.liquidation_price !== null ? Math.abs(p.mark_price - p.liquidation_price) / p.mark_price : null;
}

/** A bar that fills as the position nears liquidation (full at 0 %, empty from 50 % away). */
export function proximityCell(value: number | null): HTMLElement {
  if (value === null) return h('span', { class: 'muted' }, 'n/a');
  const danger = Math.max(0, Math.min(1, 1 - value / 0.5));
  const bar = h('span', { class: 'prox-bar' }, h('i', { style: `width:${Math.round(danger * 100)}%` }));
  return h('span', { class: `prox ${value < 0.05 ? 'near' : value < 0.15 ? 'close' : ''}`.trim() }, bar, percent(value));
}

export async function renderAccount(ctx: ViewContext): Promise<void> {
  const address = ctx.args[0] ?? '';
  const p = base(ctx.protocol);
  const figures = panel('Figures', null, true);
  const open = panel('Open positions', h('span', { class: 'hint' }, 'Distance to liquidation: how far the price may move before it.'), true);
  const closed = panel('Closed positions', null, true);
  ctx.root.append(h('div', { class: 'view-head' }, h('h1', {}, 'Account '), h('p', { class: 'mono subtle' }, address)), figures.el, open.el, closed.el);
  const goPosition = (id: number) => {
    location.hash = href(ctx.protocol, 'position', address, id);
  };

  const loadFigures = get<{ data: Account }>(`${p}/accounts/${encodeURIComponent(address)}`).then(
    ({ data: a }) => {
      if (!ctx.alive()) return;
      fill(
        figures.body,
        stats([
          ['Net PnL', signedUsd(a.net_pnl_usd), tone(a.net_pnl_usd)],
          ['Realized (before fees)', signedUsd(a.realized_pnl_usd), tone(a.realized_pnl_usd)],
          ['Volume', usd(a.volume_usd)],
          ['Trades', `${integer(a.trades)} (${integer(a.wins)} won, ${integer(a.losses)} lost)`],
          ['Win rate', percent(a.win_rate)],
          ['Open', `${integer(a.open_positions)} · ${usd(a.open_notional_usd)}`],
          ['Fees', usd(a.fees_usd + a.borrowing_fees_usd + a.funding_fees_usd + a.liquidation_fees_usd)],
          ['Leverage avg / max', `${leverage(a.avg_leverage)} / ${leverage(a.max_leverage)}`],
          ['Size avg / max', `${usd(a.avg_position_size_usd)} / ${usd(a.max_position_size_usd)}`],
          ['Avg holding time', hours(a.avg_position_duration_hours)],
          ['Trading since', time(a.first_trade_at)],
          ['Markets', a.markets_traded.join(', ') || '–'],
        ]),
      );
    },
    (err) => ctx.alive() && showFailure(figures.body, err, 'This account'),
  );

  const loadOpen = get<Paged<OpenPosition>>(`${p}/open-positions/search`, { address, sort_by: 'size', limit: 100 }).then(
    ({ data }) => {
      if (!ctx.alive()) return;
      fill(
        open.body,
        table<OpenPosition>(
          [
            { title: 'Market', cell: (r) => r.market },
            { title: 'Side', cell: (r) => r.side, tone: (r) => (r.side === 'long' ? 'up' : 'down') },
            { title: 'Size', cell: (r) => usd(r.current_size_usd), numeric: true },
            { title: 'Collateral', cell: (r) => usd(r.current_collateral_usd), numeric: true },
            { title: 'Leverage', cell: (r) => leverage(r.leverage), numeric: true },
            { title: 'Entry', cell: (r) => price(r.entry_price), numeric: true },
            { title: 'Mark', cell: (r) => price(r.mark_price), numeric: true },
            { title: 'Liquidation', cell: (r) => price(r.liquidation_price), numeric: true },
            { title: 'To liquidation', cell: (r) => proximityCell(proximity(r)) },
            { title: 'Unrealized PnL', cell: (r) => signedUsd(r.unrealized_pnl_usd), numeric: true, tone: (r) => tone(r.unrealized_pnl_usd) },
            { title: 'Opened', cell: (r) => time(r.opened_at) },
          ],
          data,
          (r) => goPosition(r.position_id),
          'No open position.',
        ),
      );
    },
    (err) => ctx.alive() && showFailure(open.body, err, 'Open positions'),
  );

  const loadClosed = async (offset: number): Promise<void> => {
    try {
      const page = await get<Paged<ClosedPosition>>(`${p}/accounts/${encodeURIComponent(address)}/history`, { limit: 50, offset });
      if (!ctx.alive()) return;
      fill(
        closed.body,
        table<ClosedPosition>(
          [
            { title: 'Market', cell: (r) => r.market },
            { title: 'Side', cell: (r) => r.side, tone: (r) => (r.side === 'long' ? 'up' : 'down') },
            { title: 'Status', cell: (r) => h('span', { class: `badge ${r.status === 'liquidated' ? 'liquidation' : 'close'}` }, r.status) },
            { title: 'Opened', cell: (r) => time(r.opened_at) },
            { title: 'Closed', cell: (r) => time(r.closed_at) },
            { title: 'Max size', cell: (r) => usd(r.max_size_usd), numeric: true },
            { title: 'Entry', cell: (r) => price(r.entry_price), numeric: true },
            { title: 'Exit', cell: (r) => price(r.exit_price), numeric: true },
            { title: 'Max leverage', cell: (r) => leverage(r.max_leverage), numeric: true },
            { title: 'Net PnL', cell: (r) => signedUsd(r.net_pnl_usd), numeric: true, tone: (r) => tone(r.net_pnl_usd) },
            { title: 'Fills', cell: (r) => integer(r.fill_count), numeric: true },
          ],
          page.data,
          (r) => goPosition(r.position_id),
          "No closed position in your plan's history window.",
        ),
        pager(page.pagination.offset, page.data.length, page.pagination.total, (next) => void loadClosed(next)),
      );
    } catch (err) {
      if (ctx.alive()) showFailure(closed.body, err, 'Closed positions');
    }
  };
  await Promise.all([loadFigures, loadOpen, loadClosed(0)]);
}
