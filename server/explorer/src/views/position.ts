/**
 * Position view: one lifecycle's figures, its fills as markers on the market's price (candles when
 * the server has them, else the fills' own prices), its size and collateral after each fill, and
 * the fills themselves.
 */
import { LineStyle, type AutoscaleInfo, type SeriesMarker, type Time, type UTCTimestamp } from 'lightweight-charts';
import { ApiFailure, get, type History, type Paged } from '../api.ts';
import { candles, COLORS, legend, line, markers, points, timeChart, toTime, type Candle } from '../charts.ts';
import { base, href, type ViewContext } from '../context.ts';
import { fill, h, panel, showFailure, stats, table } from '../dom.ts';
import { leverage, price, signedUsd, time, tone, usd, usdFull } from '../format.ts';
import { proximity, proximityCell } from './account.ts';
import type { Fill } from './shared.ts';

interface Detail {
  position_id: number;
  market: string;
  market_variant: string | null;
  address: string;
  side: 'long' | 'short';
  status: string;
  current_size_usd: number | null;
  max_size_usd: number;
  current_collateral_usd: number | null;
  entry_price: number;
  exit_price: number | null;
  mark_price: number | null;
  liquidation_price: number | null;
  unrealized_pnl_usd: number | null;
  opened_at: string;
  closed_at: string | null;
  updated_at: string | null;
  max_leverage: number;
  realized_pnl_usd: number;
  net_pnl_usd: number;
  fees_usd: number;
  fill_count: number;
}

/** A candle interval giving at most a few hundred candles over `ms`. */
function intervalFor(ms: number): { name: string; ms: number } {
  const options = [
    ['5m', 300_000],
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['4h', 14_400_000],
    ['1d', 86_400_000],
  ] as const;
  return options.map(([name, step]) => ({ name, ms: step })).find((o) => ms / o.ms <= 400) ?? { name: '1d', ms: 86_400_000 };
}

const SHAPES: Record<Fill['type'], { shape: SeriesMarker<Time>['shape']; color: string; position: 'aboveBar' | 'belowBar' }> = {
  open: { shape: 'arrowUp', color: COLORS.accent, position: 'belowBar' },
  increase: { shape: 'arrowUp', color: COLORS.long, position: 'belowBar' },
  decrease: { shape: 'arrowDown', color: COLORS.amber, position: 'aboveBar' },
  close: { shape: 'square', color: COLORS.violet, position: 'aboveBar' },
  liquidation: { shape: 'circle', color: COLORS.short, position: 'aboveBar' },
};

export async function renderPosition(ctx: ViewContext): Promise<void> {
  const [address = '', id = ''] = ctx.args;
  const p = base(ctx.protocol);
  const figures = panel('Position', null, true);
  ctx.root.append(
    h('div', { class: 'view-head' }, h('h1', {}, `Position ${id}`), h('p', { class: 'subtle' }, 'of ', h('a', { href: href(ctx.protocol, 'account', address), class: 'mono' }, address))),
    figures.el,
  );
  let detail: Detail;
  let fills: Fill[];
  try {
    [detail, fills] = await Promise.all([
      get<{ data: Detail }>(`${p}/positions/${encodeURIComponent(address)}/${encodeURIComponent(id)}`).then((r) => r.data),
      get<Paged<Fill>>(`${p}/positions/${encodeURIComponent(address)}/${encodeURIComponent(id)}/lifecycle`, { include_collateral_events: true, limit: 500 }).then((r) => r.data),
    ]);
  } catch (err) {
    if (ctx.alive()) showFailure(figures.body, err, 'This position');
    return;
  }
  if (!ctx.alive()) return;
  const open = detail.status === 'open';
  fill(
    figures.body,
    stats([
      ['Market', `${detail.market} ${detail.side}`, detail.side === 'long' ? 'up' : 'down'],
      ['Status', detail.status],
      [open ? 'Size' : 'Max size', usd(open ? detail.current_size_usd : detail.max_size_usd)],
      ['Entry', price(detail.entry_price)],
      [open ? 'Mark' : 'Exit', price(open ? detail.mark_price : detail.exit_price)],
      ...(open ? [['Liquidation price', price(detail.liquidation_price)] as [string, string]] : []),
      [open ? 'Unrealized PnL' : 'Net PnL', signedUsd(open ? detail.unrealized_pnl_usd : detail.net_pnl_usd), tone(open ? detail.unrealized_pnl_usd : detail.net_pnl_usd)],
      ['Max leverage', leverage(detail.max_leverage)],
      ['Opened', time(detail.opened_at)],
      ['Closed', time(detail.closed_at)],
    ]),
  );
  if (open) figures.body.append(h('div', { class: 'inline-stat' }, h('span', { class: 'label' }, 'Distance to liquidation'), proximityCell(proximity(detail))));

  const grid = h('div', { class: 'grid' });
  ctx.root.append(grid);
  const priceBox = panel('Price and fills', null, true);
  const sizeBox = panel('Size and collateral after each fill', null, true);
  const fillsBox = panel(`Fills (${fills.length})`, null, true);
  grid.append(priceBox.el, sizeBox.el, fillsBox.el);

  drawSizes(sizeBox.body, fills, detail);
  fill(
    fillsBox.body,
    table<Fill>(
      [
        { title: 'Time (UTC)', cell: (f) => time(f.time) },
        { title: 'Type', cell: (f) => h('span', { class: `badge ${f.type}` }, f.type) },
        { title: 'Size change', cell: (f) => signedUsd(f.size_delta_usd), numeric: true, tone: (f) => tone(f.size_delta_usd) },
        { title: 'Size after', cell: (f) => usd(f.position_size_usd), numeric: true },
        { title: 'Collateral change', cell: (f) => signedUsd(f.collateral_delta_usd), numeric: true },
        { title: 'Price', cell: (f) => price(f.price), numeric: true },
        { title: 'PnL', cell: (f) => signedUsd(f.pnl_delta_usd), numeric: true, tone: (f) => tone(f.pnl_delta_usd) },
        { title: 'Fees', cell: (f) => usdFull(f.fee_total_usd ?? f.fee_usd), numeric: true },
      ],
      fills,
    ),
  );

  const start = Date.parse(detail.opened_at);
  const end = detail.closed_at ? Date.parse(detail.closed_at) : Date.now();
  const step = intervalFor(Math.max(end - start, 3_600_000));
  const pad = Math.max(step.ms * 10, (end - start) * 0.1);
  const from = new Date(Math.floor((start - pad) / step.ms) * step.ms).toISOString();
  const to = detail.closed_at ? new Date(Math.ceil((end + pad) / step.ms) * step.ms).toISOString() : undefined;
  let bars: Candle[] | null = null;
  let note: string | null = null;
  try {
    bars = (await get<History<Candle>>(`${p}/prices/history`, { market: detail.market, interval: step.name, from, to })).data;
  } catch (err) {
    if (!(err instanceof ApiFailure && err.notAvailable)) {
      if (ctx.alive()) showFailure(priceBox.body, err, 'Price candles');
      return;
    }
    note = "Price candles are not available on this server yet: the line joins the fills' own prices.";
  }
  if (!ctx.alive()) return;
  drawPrice(priceBox.body, fills, detail, bars && bars.length > 0 ? bars : null, step.ms, note);
}

function drawPrice(body: HTMLElement, fills: Fill[], detail: Detail, bars: Candle[] | null, stepMs: number, note: string | null): void {
  const holder = h('div', { class: 'chart tall' });
  fill(body, holder);
  const chart = timeChart(holder);
  const step = stepMs / 1000;
  // on candles a marker sits on the candle of its fill's bucket; on the fills' line, on its point
  const at = (f: Fill): UTCTimestamp => (bars ? ((Math.floor(toTime(f.time) / step) * step) as UTCTimestamp) : toTime(f.time));
  const prices = fills.map((f) => ({ time: toTime(f.time), value: f.price }));
  // without candles an open position's line runs on to its latest mark
  if (!bars && detail.status === 'open' && detail.mark_price !== null && detail.updated_at) prices.push({ time: toTime(detail.updated_at), value: detail.mark_price });
  const series = bars ? candles(chart, bars) : line(chart, COLORS.accent, 'fill price', points(prices), { format: 'price' });
  markers(
    series,
    fills.map((f) => ({ time: at(f), ...SHAPES[f.type], text: f.type === 'increase' || f.type === 'decrease' ? '' : f.type })),
  );
  series.createPriceLine({ price: detail.entry_price, color: COLORS.muted, lineStyle: LineStyle.Dashed, lineWidth: 1, title: 'entry', axisLabelVisible: true });
  if (detail.status === 'open' && detail.liquidation_price !== null) {
    series.createPriceLine({ price: detail.liquidation_price, color: COLORS.short, lineStyle: LineStyle.Dashed, lineWidth: 1, title: 'liquidation', axisLabelVisible: true });
    // the scale shows the liquidation price too, so the distance to it reads at a glance
    series.applyOptions({
      autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => {
        const info = base();
        if (!info?.priceRange) return info;
        const { minValue, maxValue } = info.priceRange;
        return { ...info, priceRange: { minValue: Math.min(minValue, detail.liquidation_price!), maxValue: Math.max(maxValue, detail.liquidation_price!) } };
      },
    });
  }
  chart.timeScale().fitContent();
  body.append(
    legend([
      ...Object.entries(SHAPES).map(([type, s]) => [s.color, type] as [string, string]),
      [COLORS.muted, 'entry price'],
      ...(detail.status === 'open' ? [[COLORS.short, 'liquidation price'] as [string, string]] : []),
    ]),
  );
  if (note) body.append(h('p', { class: 'note' }, note));
}

function drawSizes(body: HTMLElement, fills: Fill[], detail: Detail): void {
  if (fills.length === 0) {
    fill(body, h('p', { class: 'note' }, 'No fills.'));
    return;
  }
  let collateral = 0;
  const size: { time: UTCTimestamp; value: number }[] = [];
  const coll: { time: UTCTimestamp; value: number }[] = [];
  for (const f of fills) {
    collateral += f.collateral_delta_usd;
    size.push({ time: toTime(f.time), value: f.position_size_usd });
    coll.push({ time: toTime(f.time), value: Math.max(0, collateral) });
  }
  if (detail.status === 'open') {
    // the state holds until now: the steps run to the present
    const now = Math.floor(Date.now() / 1000) as UTCTimestamp;
    if (now > size[size.length - 1]!.time) {
      size.push({ time: now, value: size[size.length - 1]!.value });
      coll.push({ time: now, value: detail.current_collateral_usd ?? coll[coll.length - 1]!.value });
    }
  }
  const holder = h('div', { class: 'chart' });
  fill(body, holder);
  const chart = timeChart(holder);
  line(chart, COLORS.accent, 'size', points(size), { steps: true });
  line(chart, COLORS.amber, 'collateral', points(coll), { steps: true });
  chart.timeScale().fitContent();
  body.append(
    legend([
      [COLORS.accent, 'size (USD)'],
      [COLORS.amber, 'collateral (USD, before unsettled charges)'],
    ]),
  );
}
