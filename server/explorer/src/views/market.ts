/**
 * Market view: one market's price candles, open interest (long / short), rates, volume and fees,
 * and liquidations over time, with interval and window selectors. Each chart loads on its own: one
 * endpoint missing on this server (404) is a note in its panel, not a failed page.
 */
import type { IChartApi } from 'lightweight-charts';
import { get, type History } from '../api.ts';
import { area, bars, candles, COLORS, legend, line, points, timeChart, toTime, withEmptyBuckets, type Candle } from '../charts.ts';
import { base, href, type ViewContext } from '../context.ts';
import { fill, h, panel, segmented, select, showFailure } from '../dom.ts';
import { price, rate, usd } from '../format.ts';
import { marketRows, type MarketRow } from './shared.ts';

const INTERVALS = ['5m', '15m', '1h', '4h', '1d'] as const;
const WINDOWS = ['1d', '7d', '30d', '90d', '1y'] as const;
type Interval = (typeof INTERVALS)[number];
type Window = (typeof WINDOWS)[number];
const MS: Record<string, number> = {
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
  '90d': 90 * 86_400_000,
  '1y': 365 * 86_400_000,
};
/** The API refuses a history of more buckets than this (400 window_too_large). */
const MAX_BUCKETS = 10_000;

/** The selectors survive moving between markets. */
const chosen: { interval: Interval; window: Window } = { interval: '1h', window: '7d' };

const tooMany = (interval: Interval, window: Window): boolean => MS[window]! / MS[interval]! > MAX_BUCKETS;
/** Rates and liquidations come in coarse intervals only (1h and up). */
const coarse = (interval: Interval): Interval => (interval === '5m' || interval === '15m' ? '1h' : interval);

interface OiBucket {
  time: string;
  long_usd: number;
  short_usd: number;
  total_usd: number;
}
interface RateBucket {
  time: string;
  funding_rate_long: number;
  funding_rate_short: number;
}
interface VolumeBucket {
  time: string;
  volume_usd: number;
  fees_usd: number;
}
interface LiquidationBucket {
  time: string;
  count: number;
  long_usd: number;
  short_usd: number;
  total_usd: number;
}

export async function renderMarket(ctx: ViewContext): Promise<void> {
  const head = h('div', { class: 'view-head' }, h('h1', {}, 'Markets'));
  ctx.root.append(head);
  let rows: MarketRow[];
  try {
    rows = await marketRows(ctx.protocol);
  } catch (err) {
    const p = panel('Markets');
    ctx.root.append(p.el);
    showFailure(p.body, err, 'The market list');
    return;
  }
  if (!ctx.alive()) return;
  const markets = [...new Set(rows.map((r) => r.market))].sort();
  if (markets.length === 0) {
    ctx.root.append(h('p', { class: 'note' }, 'This protocol has no active market yet.'));
    return;
  }
  const market = ctx.args[0] && markets.includes(ctx.args[0]) ? ctx.args[0] : markets[0]!;
  const variants = rows.filter((r) => r.market === market);
  const rerender = () => {
    const target = href(ctx.protocol, 'market', market);
    if (location.hash === target) window.dispatchEvent(new HashChangeEvent('hashchange'));
    else location.hash = target;
  };
  if (tooMany(chosen.interval, chosen.window)) chosen.window = [...WINDOWS].reverse().find((w) => !tooMany(chosen.interval, w))!;

  head.append(
    h(
      'div',
      { class: 'toolbar' },
      select(
        'Market',
        markets.map((m) => ({ value: m, text: m })),
        market,
        (m) => {
          location.hash = href(ctx.protocol, 'market', m);
        },
      ),
      segmented('Interval', INTERVALS, chosen.interval, (i) => {
        chosen.interval = i;
        rerender();
      }),
      segmented(
        'Window',
        WINDOWS,
        chosen.window,
        (w) => {
          chosen.window = w;
          rerender();
        },
        (w) => tooMany(chosen.interval, w),
      ),
    ),
  );
  const summary = variants.reduce((s, v) => ({ long: s.long + v.open_interest_long_usd, short: s.short + v.open_interest_short_usd, volume: s.volume + v.volume_24h_usd }), {
    long: 0,
    short: 0,
    volume: 0,
  });
  head.append(h('p', { class: 'subtle' }, `${market} · index ${price(variants[0]!.index_price)} · OI ${usd(summary.long)} long / ${usd(summary.short)} short · volume 24h ${usd(summary.volume)}`));

  const now = Date.now();
  const from = new Date(Math.floor((now - MS[chosen.window]!) / MS[chosen.interval]!) * MS[chosen.interval]!).toISOString();
  const q = { market, interval: chosen.interval, from };
  const grid = h('div', { class: 'grid' });
  ctx.root.append(grid);
  const p = base(ctx.protocol);

  chartPanel(
    ctx,
    grid,
    'Price',
    'Price candles',
    true,
    () => get<History<Candle>>(`${p}/prices/history`, q),
    (chart, data) => {
      candles(chart, data);
      return null;
    },
  );
  chartPanel(
    ctx,
    grid,
    'Open interest',
    'Open-interest history',
    false,
    () => get<History<OiBucket>>(`${p}/open-interest/history`, q),
    (chart, data) => {
      area(
        chart,
        COLORS.long,
        'long',
        data.map((r) => ({ time: toTime(r.time), value: r.long_usd })),
      );
      area(
        chart,
        COLORS.short,
        'short',
        data.map((r) => ({ time: toTime(r.time), value: r.short_usd })),
      );
      return legend([
        [COLORS.long, 'long OI'],
        [COLORS.short, 'short OI'],
      ]);
    },
  );
  ratePanel(ctx, grid, variants, { interval: coarse(chosen.interval), from });
  chartPanel(
    ctx,
    grid,
    'Volume and fees',
    'Volume history',
    false,
    () => get<History<VolumeBucket>>(`${p}/volume/history`, q).then(gapless((time) => ({ time, volume_usd: 0, fees_usd: 0 }))),
    (chart, data) => {
      bars(
        chart,
        COLORS.accent,
        'volume',
        data.map((r) => ({ time: toTime(r.time), value: r.volume_usd })),
      );
      line(
        chart,
        COLORS.amber,
        'fees',
        data.map((r) => ({ time: toTime(r.time), value: r.fees_usd })),
        { scale: 'left' },
      );
      chart.applyOptions({ leftPriceScale: { visible: true } });
      return legend([
        [COLORS.accent, 'volume (right scale)'],
        [COLORS.amber, 'fees (left scale)'],
      ]);
    },
  );
  chartPanel(
    ctx,
    grid,
    'Liquidations',
    'Liquidation history',
    false,
    () =>
      get<History<LiquidationBucket>>(`${p}/liquidations/history`, { market, interval: coarse(chosen.interval), from }).then(
        gapless((time) => ({ time, count: 0, long_usd: 0, short_usd: 0, total_usd: 0 })),
      ),
    (chart, data) => {
      bars(
        chart,
        COLORS.long,
        'longs',
        data.map((r) => ({ time: toTime(r.time), value: r.long_usd })),
      );
      bars(
        chart,
        COLORS.short,
        'shorts',
        data.map((r) => ({ time: toTime(r.time), value: -r.short_usd })),
      );
      return legend([
        [COLORS.long, 'longs liquidated (up)'],
        [COLORS.short, 'shorts liquidated (down)'],
      ]);
    },
  );
}

/** A history with its omitted (empty) buckets put back as zeros, unless it has no bucket at all. */
function gapless<T extends { time: string }>(zero: (time: string) => T): (h: History<T>) => History<T> {
  return (h) => (h.data.length === 0 ? h : { ...h, data: withEmptyBuckets(h.data, h.to, MS[h.interval]!, zero) });
}

/**
 * A panel with one chart: `load` fetches the history, `draw` puts it on the chart (and may give a
 * legend). An empty window is said in words rather than drawn as an empty frame.
 */
function chartPanel<T>(
  ctx: ViewContext,
  grid: HTMLElement,
  title: string,
  what: string,
  wide: boolean,
  load: () => Promise<History<T>>,
  draw: (chart: IChartApi, data: T[]) => HTMLElement | null,
  extra: HTMLElement | null = null,
): void {
  const p = panel(title, extra, wide);
  grid.append(p.el);
  load().then(
    ({ data }) => {
      if (!ctx.alive()) return;
      if (data.length === 0) {
        fill(p.body, h('p', { class: 'note' }, 'No data in this window.'));
        return;
      }
      const holder = h('div', { class: wide ? 'chart tall' : 'chart' });
      fill(p.body, holder);
      const chart = timeChart(holder);
      const key = draw(chart, data);
      if (key) p.body.append(key);
      chart.timeScale().fitContent();
    },
    (err) => ctx.alive() && showFailure(p.body, err, what),
  );
}

/** Rates: per pool for alpha (a pool's rates have no cross-pool aggregate), per market for beta. */
function ratePanel(ctx: ViewContext, grid: HTMLElement, variants: MarketRow[], q: { interval: Interval; from: string }): void {
  const alpha = ctx.protocol === 'alpha';
  const holder = h('div');
  grid.append(holder);
  const draw = (variant: MarketRow) => {
    holder.replaceChildren();
    const picker =
      alpha && variants.length > 1
        ? select(
            'Pool',
            variants.map((v) => ({ value: v.market_variant ?? '', text: v.market_variant ?? v.market })),
            variant.market_variant ?? '',
            (v) => draw(variants.find((x) => x.market_variant === v)!),
          )
        : h('span', { class: 'hint' }, `now ${rate(variant.funding_rate_long)} long · ${rate(variant.funding_rate_short)} short`);
    const params = alpha ? { market_variant: variant.market_variant, ...q } : { market: variant.market, ...q };
    chartPanel(
      ctx,
      holder,
      'Rates',
      'Rate history',
      false,
      () => get<History<RateBucket>>(`${base(ctx.protocol)}/funding-rates/history`, params),
      (chart, data) => {
        line(chart, COLORS.long, 'long', points(data.map((r) => ({ time: toTime(r.time), value: r.funding_rate_long }))), { format: 'percent' });
        line(chart, COLORS.short, 'short', points(data.map((r) => ({ time: toTime(r.time), value: r.funding_rate_short }))), { format: 'percent' });
        return legend([
          [COLORS.long, 'long side, net hourly'],
          [COLORS.short, 'short side, net hourly'],
        ]);
      },
      picker,
    );
  };
  draw(variants[0]!);
}
